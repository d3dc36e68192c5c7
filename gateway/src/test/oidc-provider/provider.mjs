// A real OpenID provider on loopback for the console sign-in tests (docs/identity/sso.md): the certified
// oidc-provider package with three people, a login page of its own (no consent step) and a key rotation on demand.
//   node provider.mjs --port N --redirect URL --post-logout URL
// Prints "ready <issuer>" once listening. POST /test/rotate replaces the signing key with a new one (new kid).
// Loopback only: it binds 127.0.0.1.
import http from 'node:http';
import crypto from 'node:crypto';
import Provider from 'oidc-provider';

const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, a, i, all) =>
  a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs, []));
const port = Number(args.port);
const issuer = `http://127.0.0.1:${port}`;

// alice administers the gateway, bob team A, carol only views, erin is a member of team A (the tests' role_mappings
// map these groups)
const PEOPLE = {
  alice: { email: 'alice@example.com', name: 'Alice Admin', groups: ['gw-admins'] },
  bob: { email: 'bob@example.com', name: 'Bob Lead', groups: ['team-a-admins'] },
  carol: { email: 'carol@example.com', name: 'Carol Viewer', groups: ['gw-viewers'] },
  dave: { email: 'dave@example.com', name: 'Dave Nobody', groups: [] },
  erin: { email: 'erin@example.com', name: 'Erin Member', groups: ['team-a-members'] },
};
const PASSWORD = (login) => `${login}-password`;

function signingKey() {
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: crypto.randomUUID(), use: 'sig', alg: 'RS256' };
}

function configuration(key) {
  return {
    clients: [{
      client_id: 'gateway',
      client_secret: 'gateway-secret',
      redirect_uris: String(args.redirect).split(','),
      post_logout_redirect_uris: String(args['post-logout']).split(','),
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    }],
    jwks: { keys: [key] },
    cookies: { keys: ['test-cookie-key-not-a-secret'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
    // the claims in the ID token itself, as Entra ID and Keycloak put them there
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    // a day: the tests move the gateway's clock by hours (session expiry) and still sign in afterwards
    ttl: { IdToken: 86400 },
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: true } },
    interactions: { url: (ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (ctx, id) => PEOPLE[id] && {
      accountId: id,
      claims: () => ({ sub: id, email_verified: true, ...PEOPLE[id] }),
    },
    // no consent screen: the gateway is a first-party client
    async loadExistingGrant(ctx) {
      const provider = ctx.oidc.provider;
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      if (grantId) {
        const existing = await provider.Grant.find(grantId);
        if (existing) return existing;
      }
      const grant = new provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  };
}

let provider = new Provider(issuer, configuration(signingKey()));

function page(res, status, body) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html><head><meta charset="utf-8"><title>Test identity provider</title></head><body>${body}</body></html>`);
}

function loginForm(uid, error) {
  return `<h1>Sign in to the test identity provider</h1>${error ? `<p id="error">${error}</p>` : ''}
<form method="post" action="/interaction/${uid}/login">
<label>User <input id="username" name="login" autocomplete="off"></label>
<label>Password <input id="password" name="password" type="password"></label>
<button id="sign-in" type="submit">Sign in</button></form>`;
}

async function form(req) {
  let body = '';
  for await (const chunk of req) body += chunk;
  return Object.fromEntries(new URLSearchParams(body));
}

async function interaction(req, res, url) {
  const [, , uid, action] = url.pathname.split('/');
  if (req.method === 'GET' && !action) {
    await provider.interactionDetails(req, res);
    return page(res, 200, loginForm(uid));
  }
  if (req.method === 'POST' && action === 'login') {
    const { login, password } = await form(req);
    if (!PEOPLE[login] || password !== PASSWORD(login)) return page(res, 200, loginForm(uid, 'Wrong user or password.'));
    return provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
  }
  return page(res, 404, 'not found');
}

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, issuer);
  try {
    if (url.pathname.startsWith('/interaction/')) return await interaction(req, res, url);
    if (req.method === 'POST' && url.pathname === '/test/rotate') {
      provider = new Provider(issuer, configuration(signingKey()));
      res.writeHead(204);
      return res.end();
    }
    return provider.callback()(req, res);
  } catch (e) {
    console.error(e);
    page(res, 500, 'error');
  }
});
server.listen(port, '127.0.0.1', () => console.log(`ready ${issuer}`));
