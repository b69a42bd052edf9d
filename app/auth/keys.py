"""The JWT signing key: asymmetric (ES256 by default, RS256 accepted), always with a `kid`.

Source, first match wins:
1. `JWT_PRIVATE_KEY`: a PEM private key, a private JWK, or a JWK array in GoTrue's `JWT_KEYS` format
   (the key whose `key_ops` include `sign` signs; every asymmetric key is published for verification,
   which allows rotation).
2. `JWT_KEY_FILE` (default `var/jwt_keys.json`): a JWK array; generated with a fresh P-256 key on
   first start, written atomically so that several workers starting at once agree on one key.

HMAC keys are never published in the JWKS.
"""

from __future__ import annotations

import hashlib
import json
import os
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import authlib.deprecate  # noqa: F401 - installs an "always" filter that must come before ours

from app.settings import Settings, get_settings

with warnings.catch_warnings():
    # authlib.jose is deprecated in favour of joserfc (same author) but stays until authlib 2.0.
    warnings.simplefilter("ignore")
    from authlib.jose import JsonWebKey, JsonWebToken
    from authlib.jose.rfc7517 import Key

__all__ = ["JsonWebToken", "KeyRing", "SigningKey", "get_key_ring"]

_PRIVATE_MEMBERS = {"d", "p", "q", "dp", "dq", "qi", "k", "oth"}


@dataclass(frozen=True)
class SigningKey:
    kid: str
    alg: str
    key: Key  # private (signing) or public (verification only)
    can_sign: bool


@dataclass(frozen=True)
class KeyRing:
    signer: SigningKey
    keys: dict[str, SigningKey]  # by kid
    secret: bytes  # derived from the signing key; keys HMACs of refresh-token derivation

    def public_jwks(self) -> dict[str, Any]:
        keys = []
        for key in self.keys.values():
            jwk = {k: v for k, v in key.key.as_dict(is_private=False).items() if k not in _PRIVATE_MEMBERS}
            jwk.update(kid=key.kid, alg=key.alg, use="sig", key_ops=["verify"])
            keys.append(jwk)
        return {"keys": keys}


def _alg_for(key: Key) -> str:
    kty = key.as_dict(is_private=False).get("kty")
    if kty == "EC":
        crv = key.as_dict(is_private=False).get("crv")
        if crv != "P-256":
            raise ValueError(f"Unsupported EC curve {crv!r}: use P-256 (ES256)")
        return "ES256"
    if kty == "RSA":
        return "RS256"
    raise ValueError(f"Unsupported JWT key type {kty!r}: use an EC P-256 or RSA key")


def _is_private(jwk: dict[str, Any]) -> bool:
    return bool(_PRIVATE_MEMBERS & set(jwk))


def _from_jwks(entries: list[dict[str, Any]], default_kid: str | None) -> list[SigningKey]:
    result = []
    for entry in entries:
        if entry.get("kty") == "oct":
            continue  # HS256 secrets are neither used nor published
        key = JsonWebKey.import_key(entry)
        alg = entry.get("alg") or _alg_for(key)
        if alg not in {"ES256", "RS256"}:
            raise ValueError(f"Unsupported JWT algorithm {alg!r}: use ES256 or RS256")
        kid = entry.get("kid") or default_kid or key.thumbprint()
        ops = entry.get("key_ops")
        can_sign = _is_private(entry) and (ops is None or "sign" in ops)
        result.append(SigningKey(kid=kid, alg=alg, key=key, can_sign=can_sign))
    return result


def _parse(material: str, default_kid: str | None) -> list[SigningKey]:
    text = material.strip()
    if text.startswith("{") or text.startswith("["):
        data = json.loads(text)
        if isinstance(data, dict) and "keys" in data:
            data = data["keys"]
        return _from_jwks(data if isinstance(data, list) else [data], default_kid)
    key = JsonWebKey.import_key(text.encode())
    alg = _alg_for(key)
    kid = default_kid or key.thumbprint()
    return [SigningKey(kid=kid, alg=alg, key=key, can_sign=True)]


def _generate(path: Path) -> str:
    """Create the key file once; a concurrent creator wins and everyone reads its key."""
    key = JsonWebKey.generate_key("EC", "P-256", is_private=True)
    jwk = key.as_dict(is_private=True)
    jwk.update(kid=key.thumbprint(), alg="ES256", use="sig", key_ops=["sign", "verify"])
    content = json.dumps([jwk], indent=2)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(content)
    try:
        os.link(tmp, path)  # atomic, fails if another process got there first
    except FileExistsError:
        pass
    finally:
        tmp.unlink(missing_ok=True)
    return path.read_text()


def key_file(settings: Settings) -> Path:
    return settings.jwt_key_file or (Path(settings.var_dir) / "jwt_keys.json")


_cache: dict[tuple[str | None, str, str | None], KeyRing] = {}


def get_key_ring(settings: Settings | None = None) -> KeyRing:
    settings = settings or get_settings()
    path = key_file(settings)
    cache_key = (settings.jwt_private_key, str(path), settings.jwt_kid)
    ring = _cache.get(cache_key)
    if ring is not None:
        return ring
    material = settings.jwt_private_key or (path.read_text() if path.exists() else _generate(path))
    keys = _parse(material, settings.jwt_kid)
    signers = [k for k in keys if k.can_sign]
    if not signers:
        raise ValueError("The JWT key configuration holds no private key that may sign")
    signer = signers[0]
    private_pem = signer.key.as_pem(is_private=True)
    secret = hashlib.sha256(b"medivisit-refresh-token-derivation\x00" + private_pem).digest()
    ring = KeyRing(signer=signer, keys={k.kid: k for k in keys}, secret=secret)
    _cache[cache_key] = ring
    return ring
