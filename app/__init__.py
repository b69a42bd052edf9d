"""MediVisit application core: settings, database, mail, server assembly and the CLI."""
