"""The signed-in dashboard (/dashboard/*): home, and one screen per section as each is built."""
