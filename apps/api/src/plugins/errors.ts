import { ADDRESS_PATTERN } from '@mdq/chain/address';
import { createFailureLog, describeError, failureKey } from '@mdq/log';
import type { FastifyError, FastifyInstance } from 'fastify';

/** The one error envelope every route answers with. */
export interface ErrorBody {
  statusCode: number;
  error: string;
  code: string;
  message: string;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** A domain error a handler throws; the handler below maps it to its status in this one place. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function body(statusCode: number, code: string, message: string): ErrorBody {
  return { statusCode, error: REASONS[statusCode] ?? 'Error', code, message };
}

// Connection-level failures (server down, restarting, too many clients) are a 503, not a 500.
const UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  '57P01',
  '57P03',
  '53300',
  'EPIPE',
]);
// pg's own messages for a connection lost mid-query or a client that already lost its server.
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded|connection error and is not queryable|Client was closed|connect ECONNREFUSED/i;

/** True when the error says the database cannot be reached right now (a 503, not a 500). */
function isDatabaseUnavailable(error: { code?: string; message: string }): boolean {
  const code = error.code ?? '';
  return UNAVAILABLE.has(code) || code.startsWith('08') || UNAVAILABLE_MESSAGE.test(error.message);
}

export function registerErrorHandler(app: FastifyInstance): void {
  // An outage fails every request the same way: one log line per distinct failure, with a count.
  const failures = createFailureLog();
  app.addHook('onClose', async () => failures.close());
  app.setErrorHandler((error: FastifyError & { code?: string }, request, reply) => {
    if (error instanceof ApiError) {
      return reply.status(error.statusCode).send(body(error.statusCode, error.code, error.message));
    }
    // A cursor this API did not issue (packages/db throws CursorError while decoding it).
    if (error.name === 'CursorError') {
      return reply
        .status(400)
        .send(body(400, 'INVALID_PARAMETER', `invalid querystring parameter 'cursor': ${error.message}`));
    }
    if (error.validation) {
      return reply.status(400).send(body(400, 'INVALID_PARAMETER', validationMessage(error)));
    }
    const code = error.code ?? '';
    // Postgres class 22 (data exception: a NUL byte, a value out of range…) can only come from a
    // parameter the schemas let through: the caller's input, so a 400 and never a 500.
    if (/^22[0-9A-Z]{3}$/.test(code)) {
      return reply
        .status(400)
        .send(body(400, 'INVALID_PARAMETER', 'a parameter holds a value that cannot be used'));
    }
    // 57014: the statement outlived the API's statement_timeout (MDQ_API_STATEMENT_TIMEOUT_MS),
    // which under load is the database being too busy: a 503 to retry, not a fault of the request.
    if (code === '57014') {
      return reply
        .status(503)
        .send(body(503, 'SERVICE_UNAVAILABLE', 'the database took too long to answer; retry shortly'));
    }
    if (isDatabaseUnavailable(error)) {
      const reason = describeError(error);
      failures.report(failureKey(reason), ({ count }) =>
        request.log.error({ reason, count }, 'database unavailable'),
      );
      return reply
        .status(503)
        .send(body(503, 'SERVICE_UNAVAILABLE', 'the database is unreachable; retry shortly'));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send(body(status, codeFor(status, code), error.message));
    }
    failures.report(failureKey(describeError(error)), ({ count }) =>
      request.log.error({ err: error, count }, 'unhandled error'),
    );
    return reply.status(500).send(body(500, 'INTERNAL_ERROR', 'internal error'));
  });

  app.setNotFoundHandler((request, reply) =>
    reply
      .status(404)
      .send(body(404, 'ROUTE_NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`)),
  );
}

function codeFor(status: number, fastifyCode: string): string {
  if (status === 429) return 'RATE_LIMITED';
  if (status === 415) return 'UNSUPPORTED_MEDIA_TYPE';
  if (fastifyCode.startsWith('FST_ERR_CTP')) return 'INVALID_BODY';
  return 'BAD_REQUEST';
}

/** Ajv says "querystring must have required property 'creator'"; say which parameter, plainly. */
function validationMessage(error: FastifyError): string {
  const first = error.validation?.[0];
  if (!first) return error.message;
  const context = error.validationContext ?? 'request';
  if (first.keyword === 'required') {
    const missing = (first.params as { missingProperty?: string }).missingProperty;
    return `missing required ${context} parameter '${missing}'`;
  }
  const name = first.instancePath.replace(/^\//, '').replace(/\//g, '.') || context;
  if (first.keyword === 'enum') {
    const allowed = (first.params as { allowedValues?: unknown[] }).allowedValues ?? [];
    return `invalid ${context} parameter '${name}': must be one of ${allowed.join(', ')}`;
  }
  // A union of literals fails once per branch: list every literal the parameter could have been.
  if (first.keyword === 'const') {
    const allowed = (error.validation ?? [])
      .filter((e) => e.keyword === 'const' && e.instancePath === first.instancePath)
      .map((e) => (e.params as { allowedValue?: unknown }).allowedValue);
    return `invalid ${context} parameter '${name}': must be one of ${allowed.join(', ')}`;
  }
  if (first.keyword === 'pattern' && (first.params as { pattern?: string }).pattern === ADDRESS_PATTERN) {
    return `invalid ${context} parameter '${name}': must be a 0x-prefixed hex address of at most 64 digits`;
  }
  return `invalid ${context} parameter '${name}': ${first.message ?? 'is invalid'}`;
}
