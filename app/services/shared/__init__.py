"""The rules several domains share, below the domains: who is signed in (the Principal re-check), the
account behind an identity record and what its role allows, the staff portal's permissions, who may hand out
which role or permission (`privilege`), rate limits, addresses and ZIP codes, the clock and calendar days in
a time zone, ratings, image paths, Markdown rendering and article writing, row locks. Nothing here imports a
domain package, so every domain may import these modules and no two domains need each other for them (an
import contract holds it to that).
"""
