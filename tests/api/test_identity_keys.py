"""Signing keys, the JWKS and the access-token claims (gotrue-compat §4), checked with the official client
and independently with PyJWT."""

from __future__ import annotations

import json

import httpx
import jwt as pyjwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from app.auth.keys import get_key_ring
from app.settings import Settings
from tests.api.conftest import gotrue, unique_email
from tests.conftest import start_server, stop_server

CLAIMS = {
    "iss",
    "sub",
    "aud",
    "exp",
    "iat",
    "email",
    "phone",
    "app_metadata",
    "user_metadata",
    "role",
    "aal",
    "amr",
    "session_id",
    "is_anonymous",
}


def test_jwks_is_public_cached_and_generated_once_under_var(auth_server) -> None:
    response = httpx.get(auth_server.url("/auth/v1/.well-known/jwks.json"))
    assert response.status_code == 200
    assert response.headers["cache-control"] == "public, max-age=600"
    [key] = response.json()["keys"]
    assert key["kty"] == "EC" and key["crv"] == "P-256" and key["alg"] == "ES256" and key["kid"]
    assert "d" not in key  # never the private part
    stored = json.loads((auth_server.var_dir / "jwt_keys.json").read_text())
    assert [k["kid"] for k in stored] == [key["kid"]]
    assert oct((auth_server.var_dir / "jwt_keys.json").stat().st_mode & 0o777) == "0o600"


def test_access_token_claims_and_get_claims_through_the_jwks(auth_server) -> None:
    client = gotrue(auth_server)
    email = unique_email("claims")
    signed_up = client.sign_up(
        {"email": email, "password": "secret-1234", "options": {"data": {"plan": "gold"}}}
    )
    token = signed_up.session.access_token

    claims = client.get_claims()
    assert claims is not None
    header = claims["headers"]
    jwks = httpx.get(auth_server.url("/auth/v1/.well-known/jwks.json")).json()
    assert header["alg"] == "ES256" and header["kid"] == jwks["keys"][0]["kid"]

    # Independent verification: PyJWT with the published key, audience "authenticated".
    public_key = pyjwt.PyJWK(jwks["keys"][0]).key
    payload = pyjwt.decode(token, public_key, algorithms=["ES256"], audience="authenticated")
    assert set(payload) == CLAIMS
    assert payload["aud"] == "authenticated" and payload["role"] == "authenticated"
    assert payload["sub"] == signed_up.user.id and payload["email"] == email and payload["phone"] == ""
    assert payload["exp"] - payload["iat"] == 3600
    assert payload["iss"] == auth_server.url("/auth/v1")
    assert payload["aal"] == "aal1" and payload["is_anonymous"] is False
    assert [entry["method"] for entry in payload["amr"]] == ["password"]
    assert payload["app_metadata"] == {"provider": "email", "providers": ["email"]}
    assert payload["user_metadata"]["plan"] == "gold"
    assert payload["session_id"]
    assert claims["claims"]["session_id"] == payload["session_id"]

    # A token signed by another key with the same kid is refused by the client and by the server.
    forged = pyjwt.encode(
        payload,
        ec.generate_private_key(ec.SECP256R1()),
        algorithm="ES256",
        headers={"kid": header["kid"]},
    )
    from supabase_auth.errors import AuthInvalidJwtError

    with pytest.raises(AuthInvalidJwtError):
        client.get_claims(forged)
    response = httpx.get(auth_server.url("/auth/v1/user"), headers={"Authorization": f"Bearer {forged}"})
    assert response.status_code == 403 and response.json()["code"] == "bad_jwt"


def test_key_from_the_environment_pem_and_jwk(tmp_path) -> None:
    private = ec.generate_private_key(ec.SECP256R1())
    pem = private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    ring = get_key_ring(Settings(var_dir=tmp_path, jwt_private_key=pem, jwt_kid="env-key-1"))
    assert ring.signer.kid == "env-key-1" and ring.signer.alg == "ES256"
    assert not (tmp_path / "jwt_keys.json").exists()  # nothing generated when a key is given

    jwk = json.loads(pyjwt.algorithms.ECAlgorithm.to_jwk(private))
    jwk.update(kid="jwk-key", key_ops=["sign", "verify"])
    ring = get_key_ring(Settings(var_dir=tmp_path, jwt_private_key=json.dumps([jwk])))
    assert ring.signer.kid == "jwk-key"
    assert [k["kid"] for k in ring.public_jwks()["keys"]] == ["jwk-key"]


def test_server_signs_with_the_configured_rsa_key(tmp_path, smtp_server) -> None:
    from cryptography.hazmat.primitives.asymmetric import rsa

    private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = private.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.NoEncryption(),
    ).decode()
    server = start_server(
        tmp_path,
        VAR_DIR=str(tmp_path),
        JWT_PRIVATE_KEY=pem,
        JWT_KID="rsa-1",
        PASSWORD_HASH_MEMORY_KIB="1024",
        PASSWORD_HASH_TIME_COST="1",
    )
    try:
        client = gotrue(server)
        client.sign_up({"email": unique_email("rsa"), "password": "secret-1234"})
        claims = client.get_claims()
        assert claims["headers"]["alg"] == "RS256" and claims["headers"]["kid"] == "rsa-1"
        [key] = httpx.get(server.url("/auth/v1/.well-known/jwks.json")).json()["keys"]
        assert key["kty"] == "RSA" and key["kid"] == "rsa-1" and "d" not in key
    finally:
        stop_server(server)
