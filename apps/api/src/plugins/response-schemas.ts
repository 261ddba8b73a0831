import type { FastifyInstance } from 'fastify';

/** Keywords that make fast-json-stringify choose a branch by running an Ajv validator on the value. */
const VALIDATING = ['anyOf', 'oneOf', 'if'] as const;

/**
 * Where a response schema holds a keyword that makes its serializer validate (a JSON pointer), or
 * undefined when it has none.
 */
export function validatingKeywordIn(schema: unknown, at = ''): string | undefined {
  if (schema === null || typeof schema !== 'object') return undefined;
  if (Array.isArray(schema)) {
    for (const [i, item] of schema.entries()) {
      const found = validatingKeywordIn(item, `${at}/${i}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  const record = schema as Record<string, unknown>;
  for (const keyword of VALIDATING) if (keyword in record) return `${at}/${keyword}`;
  for (const [key, value] of Object.entries(record)) {
    const found = validatingKeywordIn(value, `${at}/${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Refuses, when a route is registered, a response schema with `anyOf`, `oneOf` or `if`. For those
 * fast-json-stringify serializes a value by running an Ajv validator per branch on it, on every
 * answer, and compiles the route's whole response schema into Ajv at its first answer: on a cold
 * process, each route's first answer blocked the event loop for up to a second, which the load
 * shedding answered with 503s (docs/PERFORMANCE.md, "Serializers without validators"). A nullable
 * value is a type with 'null' (`Nullable`), a choice of strings an `enum` (`StringEnum`), both written
 * with a typeof check.
 */
export function registerResponseSchemaCheck(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const responses = (route.schema as { response?: Record<string, unknown> } | undefined)?.response;
    for (const [status, schema] of Object.entries(responses ?? {})) {
      const found = validatingKeywordIn(schema);
      if (found !== undefined) {
        throw new Error(
          `${route.method} ${route.url}: the ${status} response schema has ${found}; use Nullable or StringEnum (plugins/response-schemas.ts)`,
        );
      }
    }
  });
}
