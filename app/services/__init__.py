"""The domain: one module per area, keyword-only async functions taking the session first.

Commands are named after what a user means to do (`submit_bug_report`); queries are `get_*` / `list_*`.
Services check permissions themselves and return pydantic `*Read` objects, never ORM rows.
"""
