"""The built-in identity service: `/auth/v1`, wire-compatible with Supabase Auth (GoTrue).

- `keys`: the asymmetric JWT signing key (ES256, with a `kid`) and the JWKS.
- `tokens`: access-token JWTs and the opaque secrets (refresh tokens, e-mail OTPs).
- `passwords`: argon2id hashing and the password rules.
- `sessions`, `users`, `otp`, `pkce`, `mfa`: the services (keyword-only, database session first).
- `mailer`: the e-mails with codes and links; `ratelimit`: per-IP / per-address request limits.
- `api`: the FastAPI router; `errors`: GoTrue's error answers.
"""
