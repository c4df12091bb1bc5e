import { createHash, randomBytes } from 'node:crypto';
import type { AuthApp, AuthContext } from '../app.ts';
import { UUID, type AuthDeps } from '../context.ts';
import { AuthError, jsonResponse, readJsonBody } from '../http.ts';

/**
 * The OAuth 2.1 server's admin API (`auth.admin.oauth`: /admin/oauth/clients create, list, get, update, delete,
 * regenerate_secret) as GoTrue's oauthserver package answers it, behind `[auth.oauth_server] enabled`. Clients
 * are rows of auth.oauth_clients; a confidential client's secret is shown once and kept as its SHA-256. The
 * authorization flow itself (/oauth/authorize, /oauth/token) is not served.
 */
const AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post'];
const GRANT_TYPES = ['authorization_code', 'refresh_token'];

interface ClientRow {
  id: string;
  client_type: 'public' | 'confidential';
  redirect_uris: string;
  token_endpoint_auth_method: string;
  grant_types: string;
  client_name: string | null;
  client_uri: string | null;
  logo_uri: string | null;
  registration_type: string;
  created_at: string;
  updated_at: string;
}

const ts = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as ${column}`;
const COLUMNS = `id, client_type, redirect_uris, token_endpoint_auth_method, grant_types, client_name, client_uri,
  logo_uri, registration_type, ${ts('created_at')}, ${ts('updated_at')}`;

const invalid = (message: string) => new AuthError(400, 'validation_failed', message);
const split = (list: string) => (list ? list.split(',') : []);

/** `oauthServerClientToResponse`: empty optional fields are left out (`omitempty`). */
function clientJson(row: ClientRow, secret?: string): Record<string, unknown> {
  const json: Record<string, unknown> = { client_id: row.id };
  if (secret) json.client_secret = secret;
  json.client_type = row.client_type;
  const redirectUris = split(row.redirect_uris);
  if (redirectUris.length) json.redirect_uris = redirectUris;
  json.token_endpoint_auth_method = row.token_endpoint_auth_method;
  const grantTypes = split(row.grant_types);
  if (grantTypes.length) json.grant_types = grantTypes;
  json.response_types = ['code'];
  if (row.client_name) json.client_name = row.client_name;
  if (row.client_uri) json.client_uri = row.client_uri;
  if (row.logo_uri) json.logo_uri = row.logo_uri;
  json.registration_type = row.registration_type;
  json.created_at = row.created_at;
  json.updated_at = row.updated_at;
  return json;
}

function validateRedirectUris(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) throw invalid('redirect_uris cannot be empty');
  if (value.length > 10) throw invalid('redirect_uris cannot exceed 10 items');
  for (const uri of value) {
    const reason = redirectUriProblem(uri);
    if (reason) throw invalid(`invalid redirect_uri '${String(uri)}': ${reason}`);
  }
  return value as string[];
}

function redirectUriProblem(uri: unknown): string | null {
  if (typeof uri !== 'string' || !uri) return 'redirect URI cannot be empty';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must have scheme and host';
  }
  const scheme = url.protocol.slice(0, -1);
  if (['javascript', 'data', 'file', 'vbscript', 'about', 'blob'].includes(scheme.toLowerCase())) {
    return `scheme '${scheme}' is not allowed for security reasons`;
  }
  if (!url.host) return 'must have scheme and host';
  if (scheme === 'http' && !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) {
    return 'HTTP scheme only allowed for localhost';
  }
  if (url.hash) return 'fragment not allowed in redirect URI';
  return null;
}

function validateGrantTypes(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) throw invalid('grant_types cannot be empty');
  if (value.some((type) => !GRANT_TYPES.includes(type as string))) {
    throw invalid("grant_types must only contain 'authorization_code' and/or 'refresh_token'");
  }
  return value as string[];
}

function optionalUrl(value: unknown, field: string, max: number): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || !URL.canParse(value)) throw invalid(`${field} must be a valid URL`);
  if (value.length > max) throw invalid(`${field} cannot exceed ${max} characters`);
  return value;
}

function clientName(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') throw invalid('client_name must be a string');
  if (value.length > 1024) throw invalid('client_name cannot exceed 1024 characters');
  return value;
}

const newSecret = () => randomBytes(32).toString('base64url');
const secretHash = (secret: string) => createHash('sha256').update(secret).digest('base64url');

export function adminOAuthClientRoutes(app: AuthApp, deps: AuthDeps) {
  const pool = deps.ctx.adminPool;

  /** requireAdminCredentials, then requireOAuthServerEnabled (404 feature_disabled), as GoTrue's router. */
  const guard = async (c: AuthContext) => {
    await deps.requireAdmin(c.env.incoming);
    if (!deps.config.oauthServer.enabled) throw new AuthError(404, 'feature_disabled', 'OAuth server is disabled');
  };
  const load = async (c: AuthContext): Promise<ClientRow> => {
    await guard(c);
    const id = c.req.param('clientId') ?? '';
    if (!UUID.test(id)) throw invalid('invalid client_id format');
    const { rows } = await pool.query<ClientRow>(
      `select ${COLUMNS} from auth.oauth_clients where id = $1 and deleted_at is null`,
      [id],
    );
    if (!rows[0]) throw new AuthError(404, 'oauth_client_not_found', 'OAuth client not found');
    return rows[0];
  };

  app.post('/admin/oauth/clients', async (c) => {
    await guard(c);
    const body = await readJsonBody(c.req.raw);
    const redirectUris = validateRedirectUris(body.redirect_uris);
    const grantTypes = body.grant_types === undefined ? GRANT_TYPES : validateGrantTypes(body.grant_types);
    const explicitType = typeof body.client_type === 'string' ? body.client_type : '';
    const method = typeof body.token_endpoint_auth_method === 'string' ? body.token_endpoint_auth_method : '';
    if (explicitType && explicitType !== 'public' && explicitType !== 'confidential') {
      throw invalid("client_type must be 'public' or 'confidential'");
    }
    if (method && !AUTH_METHODS.includes(method)) {
      throw invalid(`token_endpoint_auth_method must be one of: [${AUTH_METHODS.join(' ')}]`);
    }
    const inferred = method === 'none' ? 'public' : method ? 'confidential' : '';
    if (explicitType && inferred && explicitType !== inferred) {
      throw invalid(
        `client_type '${explicitType}' is inconsistent with token_endpoint_auth_method '${method}' (expected client_type '${inferred}')`,
      );
    }
    const clientType = explicitType || inferred || 'confidential';
    const authMethod = method || (clientType === 'public' ? 'none' : 'client_secret_basic');
    const secret = clientType === 'confidential' ? newSecret() : undefined;
    const { rows } = await pool.query<ClientRow>(
      `insert into auth.oauth_clients (id, client_secret_hash, registration_type, redirect_uris, grant_types,
         client_name, client_uri, logo_uri, client_type, token_endpoint_auth_method)
       values (gen_random_uuid(), $1, 'manual', $2, $3, $4, $5, $6, $7, $8) returning ${COLUMNS}`,
      [
        secret ? secretHash(secret) : null,
        redirectUris.join(','),
        grantTypes.join(','),
        clientName(body.client_name),
        optionalUrl(body.client_uri, 'client_uri', 2048),
        optionalUrl(body.logo_uri, 'logo_uri', 2048),
        clientType,
        authMethod,
      ],
    );
    return jsonResponse(201, clientJson(rows[0]!, secret));
  });

  // GoTrue lists every client, newest first, whatever page/per_page say.
  app.get('/admin/oauth/clients', async (c) => {
    await guard(c);
    const { rows } = await pool.query<ClientRow>(
      `select ${COLUMNS} from auth.oauth_clients where deleted_at is null order by created_at desc`,
    );
    return jsonResponse(200, rows.length ? { clients: rows.map((row) => clientJson(row)) } : {});
  });

  app.get('/admin/oauth/clients/:clientId', async (c) => jsonResponse(200, clientJson(await load(c))));

  app.put('/admin/oauth/clients/:clientId', async (c) => {
    const client = await load(c);
    const body = await readJsonBody(c.req.raw);
    const fields = [
      'redirect_uris',
      'grant_types',
      'client_name',
      'client_uri',
      'logo_uri',
      'token_endpoint_auth_method',
    ];
    if (fields.every((field) => body[field] === undefined || body[field] === null)) {
      throw invalid('No fields provided for update');
    }
    const set: Record<string, unknown> = {};
    if (body.redirect_uris != null) set.redirect_uris = validateRedirectUris(body.redirect_uris).join(',');
    if (body.grant_types != null) set.grant_types = validateGrantTypes(body.grant_types).join(',');
    if (body.client_name != null) set.client_name = clientName(body.client_name);
    if (body.client_uri != null) set.client_uri = optionalUrl(body.client_uri, 'client_uri', 2048);
    if (body.logo_uri != null) set.logo_uri = optionalUrl(body.logo_uri, 'logo_uri', 2048);
    if (body.token_endpoint_auth_method != null) {
      const method = String(body.token_endpoint_auth_method);
      if (!AUTH_METHODS.includes(method)) {
        throw invalid(`invalid token_endpoint_auth_method: must be one of [${AUTH_METHODS.join(' ')}]`);
      }
      const valid = client.client_type === 'public' ? ['none'] : ['client_secret_basic', 'client_secret_post'];
      if (!valid.includes(method)) {
        throw invalid(
          `token_endpoint_auth_method '${method}' is not valid for client_type '${client.client_type}'; valid methods: [${valid.join(' ')}]`,
        );
      }
      set.token_endpoint_auth_method = method;
    }
    const columns = Object.keys(set);
    const { rows } = await pool.query<ClientRow>(
      `update auth.oauth_clients set ${columns.map((column, i) => `${column} = $${i + 2}`).join(', ')},
         updated_at = now() where id = $1 returning ${COLUMNS}`,
      [client.id, ...columns.map((column) => set[column])],
    );
    return jsonResponse(200, clientJson(rows[0]!));
  });

  app.delete('/admin/oauth/clients/:clientId', async (c) => {
    const client = await load(c);
    await pool.query('update auth.oauth_clients set deleted_at = now(), updated_at = now() where id = $1', [client.id]);
    return new Response(null, { status: 204 });
  });

  app.post('/admin/oauth/clients/:clientId/regenerate_secret', async (c) => {
    const client = await load(c);
    if (client.client_type !== 'confidential') throw invalid('Cannot regenerate secret for public client');
    const secret = newSecret();
    const { rows } = await pool.query<ClientRow>(
      `update auth.oauth_clients set client_secret_hash = $2, updated_at = now() where id = $1 returning ${COLUMNS}`,
      [client.id, secretHash(secret)],
    );
    return jsonResponse(200, clientJson(rows[0]!, secret));
  });
}
