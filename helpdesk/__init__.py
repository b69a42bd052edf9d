"""The help-desk ticket console used by staff (filled in with the staff portal)."""
