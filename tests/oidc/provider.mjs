// A real OpenID Connect provider for the tests (panva/oidc-provider with its development login form).
// Any login name signs in; the e-mail is the login when it contains "@", verified unless it starts
// with "unverified". Configured by env: PORT, CLIENT_ID, CLIENT_SECRET, REDIRECT_URI.
import Provider from "oidc-provider";

const port = Number(process.env.PORT || 9400);
const issuer = `http://127.0.0.1:${port}`;

function claimsFor(login) {
  const email = login.includes("@") ? login.toLowerCase() : `${login.toLowerCase()}@oidc.test`;
  const [given, family] = (login.split("@")[0].split(/[._-]/).concat(["", ""])).slice(0, 2);
  const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);
  return {
    sub: `oidc|${login.toLowerCase()}`,
    email,
    email_verified: !login.startsWith("unverified"),
    given_name: cap(given),
    family_name: cap(family),
    name: [cap(given), cap(family)].filter(Boolean).join(" "),
    picture: "https://images.example.test/avatar.png",
  };
}

const provider = new Provider(issuer, {
  clients: [{
    client_id: process.env.CLIENT_ID || "medivisit",
    client_secret: process.env.CLIENT_SECRET || "test-secret",
    redirect_uris: (process.env.REDIRECT_URI || "").split(",").filter(Boolean),
    grant_types: ["authorization_code"],
    response_types: ["code"],
    token_endpoint_auth_method: "client_secret_basic",
  }],
  claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "given_name", "family_name", "picture"] },
  pkce: { required: () => true },
  features: { devInteractions: { enabled: true } },
  findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => claimsFor(id) }),
  conformIdTokenClaims: false,
  cookies: { keys: ["medivisit-test-cookie-key"] },
  loadExistingGrant: async (ctx) => {
    // Consent is implied for the test client: every requested scope and claim is granted.
    const grant = new provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
    grant.addOIDCScope("openid email profile");
    await grant.save();
    return grant;
  },
});
provider.proxy = false;

provider.listen(port, "127.0.0.1", () => {
  console.log(`oidc-provider listening on ${issuer}`);
});
