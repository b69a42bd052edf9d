"""The staff back office (/staff/*): the portal and staff dashboard; later the team and help-desk screens."""
