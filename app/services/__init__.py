"""The domain: one package per area, keyword-only async functions taking the session first, then the actor.

Commands are named after what a user means to do (`submit_bug_report`); queries are `get_*` / `list_*`.
Every command takes one actor type, `app.principal.Principal`, and re-checks it; services check permissions
themselves and return pydantic `*Read` objects (models/), never ORM rows. They never commit: the caller's
unit of work does.

Each package's `__init__` is its public surface, for screens, HTTP routes, the assembly and other domains
alike: they import names from there only, never a domain's private `_*` modules (import contracts hold them to
it, and to no cycle between domains). Rules several domains need (who is signed in, an account's rights, staff
permissions, addresses, the clock) live below the domains in `shared/`, which imports no domain. A surface is
explicit imports with `__all__`.

What screens and HTTP routes call takes the actor (the hooks supply it), except the few public reads anyone
may make (the catalogue, provider search, serving an ad). Commands that take no actor, because the caller has
already decided who may act or no one is acting (a job, a domain event, seeding), are a domain's internal
commands: they live in its `internal` module, for jobs, the assembly and other domains; the import contracts
keep screens and HTTP routes out of it.
"""
