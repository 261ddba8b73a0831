import type { Db } from '@mdq/db';
import {
  IndexerQueryError,
  type OperationReads,
  operationReads,
  type RootField,
  runIndexerFields,
} from '@mdq/db/read';
import {
  type DocumentNode,
  execute,
  type FragmentDefinitionNode,
  GraphQLError,
  getOperationAST,
  getVariableValues,
  Kind,
  parse,
  specifiedRules,
  validate,
} from 'graphql';
import { LRUCache } from 'lru-cache';
import { type IndexerLimits, LimitError, type OperationPlan, planOperation } from './plan';
import type { IndexerSchema } from './schema';

export interface GraphqlRequest {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

/** A GraphQL answer as JSON text: `{"data": …}` or `{"errors": […]}`, always HTTP 200 (as Hasura). */
type GraphqlAnswer = string;

const errorsBody = (errors: readonly { message: string; code: string }[]): GraphqlAnswer =>
  JSON.stringify({
    errors: errors.map((e) => ({ message: e.message, extensions: { code: e.code, path: '$' } })),
  });

/** Nesting depth of a JSON value, walked without recursion (the value is the caller's). */
function jsonDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (item === null || typeof item !== 'object') continue;
    deepest = Math.max(deepest, depth);
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Postgres errors a query's own values can cause: answered as GraphQL errors, not as a failure. */
function queryError(error: unknown, limits: IndexerLimits): { message: string; code: string } | null {
  const code = (error as { code?: unknown }).code;
  if (code === '57014') {
    return {
      code: 'statement-timeout',
      message: `the query ran past the statement timeout of ${limits.statementTimeoutMs} ms`,
    };
  }
  if (typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code)) {
    return { code: 'data-exception', message: `a value cannot be used: ${(error as Error).message}` };
  }
  return null;
}

function parseQuery(query: string, limits: IndexerLimits): DocumentNode | { message: string; code: string } {
  try {
    return parse(query, { maxTokens: limits.maxTokens });
  } catch (error) {
    if (error instanceof GraphQLError) return { message: error.message, code: 'parse-failed' };
    // A document nested deeply enough to exhaust the parser's stack.
    if (error instanceof RangeError) return { message: 'the query nests too deeply', code: 'depth-limit' };
    throw error;
  }
}

/**
 * Parsed and validated documents by query text: clients send the same few query texts (the SDK's
 * operations) with different variables, and validating against the whole schema costs more than
 * the SQL of a small query. Invalid documents are kept as their error answer.
 */
const documents = new LRUCache<string, DocumentNode | GraphqlAnswer>({ max: 1000 });

function checkedDocument(
  indexer: IndexerSchema,
  query: string,
  limits: IndexerLimits,
): DocumentNode | GraphqlAnswer {
  const key = `${limits.maxTokens}:${query}`;
  const cached = documents.get(key);
  if (cached !== undefined) return cached;
  const document = parseQuery(query, limits);
  let checked: DocumentNode | GraphqlAnswer;
  if (!('kind' in document)) checked = errorsBody([document]);
  else {
    let validation: readonly GraphQLError[];
    try {
      validation = validate(indexer.schema, document, specifiedRules, { maxErrors: 10 });
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      validation = [new GraphQLError('the query nests too deeply', { extensions: { code: 'depth-limit' } })];
    }
    checked =
      validation.length > 0
        ? errorsBody(
            validation.map((e) => ({
              message: e.message,
              code: typeof e.extensions['code'] === 'string' ? e.extensions['code'] : 'validation-failed',
            })),
          )
        : document;
  }
  // Only bounded texts are kept, so the cache cannot hold more than 1,000 × 64 kB.
  if (query.length <= 65_536) documents.set(key, checked);
  return checked;
}

/**
 * A request checked and planned (prepareGraphql): its answer when it fails a check (an error
 * answer), else what running it takes: its plan, the root fields its SQL answers, and what that
 * SQL reads (what a cached answer is keyed by).
 */
export type PreparedGraphql =
  | { kind: 'answer'; body: GraphqlAnswer }
  | {
      kind: 'plan';
      plan: OperationPlan;
      fields: RootField[];
      reads: OperationReads;
      document: DocumentNode;
      variables: Record<string, unknown>;
      operationName: string | undefined;
    };

/**
 * Checks and plans one GraphQL request: parse, validate and coerce with graphql-js against the
 * generated schema, refuse what passes a cap, then plan one SQL statement per root field. No
 * database is read: what is wrong with a request is answered before its cache key is taken.
 */
export function prepareGraphql(
  indexer: IndexerSchema,
  request: GraphqlRequest,
  limits: IndexerLimits,
): PreparedGraphql {
  const answer = (body: GraphqlAnswer): PreparedGraphql => ({ kind: 'answer', body });
  const checked = checkedDocument(indexer, request.query, limits);
  if (typeof checked === 'string') return answer(checked);
  const document = checked;
  const operation = getOperationAST(document, request.operationName ?? undefined);
  if (!operation) {
    return answer(
      errorsBody([
        {
          message: request.operationName
            ? `no operation named '${request.operationName}'`
            : 'the document holds several operations: name one in operationName',
          code: 'validation-failed',
        },
      ]),
    );
  }
  if (operation.operation !== 'query') {
    return answer(
      errorsBody([
        {
          message: `only queries are served: this is a read-only API (got a ${operation.operation})`,
          code: 'validation-failed',
        },
      ]),
    );
  }
  const variables = request.variables ?? {};
  if (jsonDepth(variables) > limits.maxVariablesDepth) {
    return answer(
      errorsBody([
        { message: `variables nest deeper than ${limits.maxVariablesDepth} levels`, code: 'depth-limit' },
      ]),
    );
  }
  const coerced = getVariableValues(indexer.schema, operation.variableDefinitions ?? [], variables, {
    maxErrors: 10,
  });
  if (coerced.errors) {
    return answer(errorsBody(coerced.errors.map((e) => ({ message: e.message, code: 'validation-failed' }))));
  }
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  }
  try {
    const plan = planOperation(indexer, operation, fragments, coerced.coerced, limits);
    const fields = plan.keys.flatMap((k) => (k.field ? [k.field] : []));
    return {
      kind: 'plan',
      plan,
      fields,
      reads: operationReads(fields),
      document,
      variables,
      operationName: request.operationName ?? undefined,
    };
  } catch (error) {
    if (error instanceof LimitError)
      return answer(errorsBody([{ message: error.message, code: error.code }]));
    if (error instanceof IndexerQueryError || error instanceof GraphQLError) {
      return answer(errorsBody([{ message: error.message, code: 'validation-failed' }]));
    }
    throw error;
  }
}

/** An answer, and whether it holds for as long as the data it read is unchanged (a timeout does not). */
export interface GraphqlResult {
  body: GraphqlAnswer;
  cacheable: boolean;
}

/**
 * Runs a prepared request: one SQL statement for its root fields (JSON built by Postgres, so
 * numbers and timestamps come out exactly as stored); introspection fields go to graphql-js.
 */
export async function runGraphql(
  db: Db,
  indexer: IndexerSchema,
  prepared: PreparedGraphql,
  limits: IndexerLimits,
): Promise<GraphqlResult> {
  if (prepared.kind === 'answer') return { body: prepared.body, cacheable: true };
  const { plan, fields } = prepared;
  let texts: string[];
  try {
    texts = fields.length > 0 ? await runIndexerFields(db, fields) : [];
  } catch (error) {
    if (error instanceof IndexerQueryError || error instanceof GraphQLError) {
      return { body: errorsBody([{ message: error.message, code: 'validation-failed' }]), cacheable: true };
    }
    const known = queryError(error, limits);
    if (known) return { body: errorsBody([known]), cacheable: false };
    throw error;
  }

  let introspection: Record<string, unknown> = {};
  if (plan.keys.some((k) => k.field === null)) {
    // graphql-js answers __schema / __type / __typename; the table fields it meets resolve empty
    // and their answers are the SQL ones.
    const rootValue = Object.fromEntries(
      Object.keys(indexer.schema.getQueryType()?.getFields() ?? {}).map((name) => [
        name,
        name.endsWith('_aggregate') ? {} : [],
      ]),
    );
    const result = await execute({
      schema: indexer.schema,
      document: prepared.document,
      rootValue,
      variableValues: prepared.variables,
      operationName: prepared.operationName,
    });
    if (result.errors) {
      const body = errorsBody(result.errors.map((e) => ({ message: e.message, code: 'unexpected' })));
      return { body, cacheable: false };
    }
    introspection = result.data ?? {};
  }
  let next = 0;
  const parts = plan.keys.map(({ key, field }) => {
    const value = field ? (texts[next++] as string) : JSON.stringify(introspection[key] ?? null);
    return `${JSON.stringify(key)}:${value}`;
  });
  return { body: `{"data":{${parts.join(',')}}}`, cacheable: true };
}
