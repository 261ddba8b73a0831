import type { CountSelection, RootField, Selection } from '@mdq/db/read';
import {
  type FieldNode,
  type FragmentDefinitionNode,
  GraphQLIncludeDirective,
  type GraphQLObjectType,
  GraphQLSkipDirective,
  getArgumentValues,
  getDirectiveValues,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { IndexerSchema, TableTypes } from './schema';

/** The caps of the public endpoint; each one, when passed, answers a GraphQL error naming it. */
export interface IndexerLimits {
  /** Rows one root field may answer: a larger `limit` is refused, a missing one means this many. */
  rowCap: number;
  /** Nesting of selections in the query document (GraphiQL's introspection query needs 15). */
  maxDepth: number;
  /** Σ over root fields of rows × (1 + related rows read per row); aggregates count as rowCap. */
  maxCost: number;
  /** Root fields in one operation. */
  maxRootFields: number;
  /** Fields selected on one object (Postgres builds each object with at most 50 pairs). */
  maxFieldsPerObject: number;
  /** Time an operation's SQL statement may take (the GraphQL connections' `statement_timeout`). */
  statementTimeoutMs: number;
  /** Connections of the GraphQL pool (its own, beside the pages'). */
  connections: number;
  /** Lexical tokens in the query document. */
  maxTokens: number;
  /** Nesting of the variables' JSON. */
  maxVariablesDepth: number;
}

export const DEFAULT_INDEXER_LIMITS: IndexerLimits = {
  rowCap: 1000,
  maxDepth: 16,
  maxCost: 20_000,
  maxRootFields: 20,
  maxFieldsPerObject: 50,
  statementTimeoutMs: 5000,
  connections: 5,
  maxTokens: 10_000,
  maxVariablesDepth: 32,
};

/** A request past one of the caps; `code` goes to the error's extensions. */
export class LimitError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

interface Context {
  indexer: IndexerSchema;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  limits: IndexerLimits;
}

/** Fields of a selection set by response key, through fragments and @skip / @include (graphql-js's CollectFields). */
function collect(ctx: Context, sets: readonly SelectionSetNode[]): Map<string, FieldNode[]> {
  const out = new Map<string, FieldNode[]>();
  const visited = new Set<string>();
  const walk = (set: SelectionSetNode) => {
    for (const node of set.selections) {
      if (getDirectiveValues(GraphQLSkipDirective, node, ctx.variables)?.['if'] === true) continue;
      if (getDirectiveValues(GraphQLIncludeDirective, node, ctx.variables)?.['if'] === false) continue;
      if (node.kind === Kind.FIELD) {
        const key = node.alias?.value ?? node.name.value;
        const list = out.get(key);
        if (list) list.push(node);
        else out.set(key, [node]);
      } else if (node.kind === Kind.INLINE_FRAGMENT) {
        walk(node.selectionSet);
      } else if (!visited.has(node.name.value)) {
        visited.add(node.name.value);
        const fragment = ctx.fragments[node.name.value];
        if (fragment) walk(fragment.selectionSet);
      }
    }
  };
  for (const set of sets) walk(set);
  return out;
}

const subsets = (nodes: readonly FieldNode[]) =>
  nodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : []));

/** The deepest nesting of selections in the operation, fragments expanded. */
function selectionDepth(
  ctx: Pick<Context, 'fragments'>,
  set: SelectionSetNode,
  seen = new Set<string>(),
): number {
  let deepest = 0;
  for (const node of set.selections) {
    let inner = 0;
    if (node.kind === Kind.FIELD)
      inner = node.selectionSet ? selectionDepth(ctx, node.selectionSet, seen) : 0;
    else if (node.kind === Kind.INLINE_FRAGMENT) inner = selectionDepth(ctx, node.selectionSet, seen) - 1;
    else if (!seen.has(node.name.value)) {
      const fragment = ctx.fragments[node.name.value];
      const next = new Set(seen).add(node.name.value);
      inner = fragment ? selectionDepth(ctx, fragment.selectionSet, next) - 1 : 0;
    }
    deepest = Math.max(deepest, inner);
  }
  return deepest + 1;
}

function tableSelection(ctx: Context, types: TableTypes, nodes: readonly FieldNode[]): Selection {
  const fields = collect(ctx, subsets(nodes));
  if (fields.size > ctx.limits.maxFieldsPerObject) {
    throw new LimitError(
      'too-many-fields',
      `${types.table.name}: ${fields.size} fields selected on one object; the limit is ${ctx.limits.maxFieldsPerObject}`,
    );
  }
  const out: Selection[number][] = [];
  for (const [key, fieldNodes] of fields) {
    const name = (fieldNodes[0] as FieldNode).name.value;
    if (name === '__typename') out.push({ key, typename: types.object.name });
    else if (types.table.columns[name]) out.push({ key, column: name });
    else {
      const relation = types.table.relations[name];
      const target = relation && ctx.indexer.tablesByType.get(relation.target);
      if (!target)
        throw new LimitError('validation-failed', `'${name}' is not a field of ${types.table.name}`);
      out.push({ key, relation: name, selection: tableSelection(ctx, target, fieldNodes) });
    }
  }
  return out;
}

/** Related rows read per row: each object relationship selected is one lookup per row. */
function lookups(selection: Selection): number {
  return selection.reduce((sum, item) => sum + ('selection' in item ? 1 + lookups(item.selection) : 0), 0);
}

function aggregateSelection(ctx: Context, types: TableTypes, nodes: readonly FieldNode[]) {
  const out: ({ key: string; typename: string } | { key: string; aggregate: CountSelection })[] = [];
  const aggregateFields = types.aggregate.getFields()['aggregate']?.type as GraphQLObjectType;
  const countField = aggregateFields.getFields()['count'];
  for (const [key, fieldNodes] of collect(ctx, subsets(nodes))) {
    const name = (fieldNodes[0] as FieldNode).name.value;
    if (name === '__typename') {
      out.push({ key, typename: types.aggregate.name });
      continue;
    }
    const aggregate: CountSelection[number][] = [];
    for (const [innerKey, innerNodes] of collect(ctx, subsets(fieldNodes))) {
      const node = innerNodes[0] as FieldNode;
      if (node.name.value === '__typename')
        aggregate.push({ key: innerKey, typename: `${types.table.name}_aggregate_fields` });
      else if (countField) {
        const args = getArgumentValues(countField, node, ctx.variables) as {
          columns?: string[] | null;
          distinct?: boolean | null;
        };
        aggregate.push({ key: innerKey, count: args });
      }
    }
    out.push({ key, aggregate });
  }
  return out;
}

export interface OperationPlan {
  /** Response keys in order: a SQL root field, or an introspection field graphql-js answers. */
  keys: { key: string; field: RootField | null }[];
}

interface RootArgs {
  where?: Record<string, unknown> | null;
  order_by?: Record<string, unknown>[] | null;
  limit?: number | null;
  offset?: number | null;
  distinct_on?: string[] | null;
}

/** Turns a validated query operation (variables coerced) into one SQL root field per response key. */
export function planOperation(
  indexer: IndexerSchema,
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
  limits: IndexerLimits,
): OperationPlan {
  const ctx: Context = { indexer, fragments, variables, limits };
  const depth = selectionDepth(ctx, operation.selectionSet);
  if (depth > limits.maxDepth) {
    throw new LimitError('depth-limit', `the query nests ${depth} levels; the limit is ${limits.maxDepth}`);
  }
  const root = collect(ctx, [operation.selectionSet]);
  if (root.size > limits.maxRootFields) {
    throw new LimitError(
      'too-many-root-fields',
      `${root.size} root fields; the limit is ${limits.maxRootFields}`,
    );
  }
  const queryFields = indexer.schema.getQueryType()?.getFields() ?? {};
  const keys: OperationPlan['keys'] = [];
  let cost = 0;
  for (const [key, nodes] of root) {
    const node = nodes[0] as FieldNode;
    const name = node.name.value;
    const definition = queryFields[name];
    if (name.startsWith('__') || !definition) {
      keys.push({ key, field: null });
      continue;
    }
    const args = getArgumentValues(definition, node, variables) as RootArgs;
    const aggregate = name.endsWith('_aggregate');
    // Root fields are named as their types: `<table>` and `<table>_aggregate`.
    const types = indexer.tablesByType.get(name) as TableTypes;
    if (args.limit != null && (args.limit < 0 || (!aggregate && args.limit > limits.rowCap))) {
      throw new LimitError(
        'row-limit',
        `${key}: limit ${args.limit} is outside 0..${limits.rowCap} (the row cap per root field)`,
      );
    }
    if (args.offset != null && args.offset < 0)
      throw new LimitError('validation-failed', `${key}: offset must be ≥ 0`);
    const common = {
      table: types.table.name,
      where: args.where ?? null,
      orderBy: args.order_by ?? null,
      offset: args.offset ?? 0,
      distinctOn: args.distinct_on ?? null,
    };
    if (aggregate) {
      keys.push({
        key,
        field: {
          kind: 'aggregate',
          ...common,
          limit: args.limit ?? null,
          selection: aggregateSelection(ctx, types, nodes),
        },
      });
      cost += limits.rowCap;
    } else {
      const selection = tableSelection(ctx, types, nodes);
      const limit = args.limit ?? limits.rowCap;
      keys.push({ key, field: { kind: 'rows', ...common, limit, selection } });
      cost += limit * (1 + lookups(selection));
    }
  }
  if (cost > limits.maxCost) {
    throw new LimitError(
      'cost-limit',
      `the query may read ${cost} rows (rows × related lookups over its root fields); the limit is ${limits.maxCost}`,
    );
  }
  return { keys };
}
