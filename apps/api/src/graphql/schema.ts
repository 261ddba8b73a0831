import { INDEXER_TABLES, type IndexerScalar, type IndexerTable } from '@mdq/db/read';
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLError,
  type GraphQLFieldConfigMap,
  type GraphQLInputFieldConfigMap,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLOutputType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  Kind,
  type ValueNode,
  valueFromASTUntyped,
} from 'graphql';

/*
 * The GraphQL schema of the Aptos Indexer API's NFT tables, generated from the table descriptions
 * of @mdq/db (INDEXER_TABLES) with Hasura's names: `<table>`, `<table>_aggregate`,
 * `<table>_bool_exp`, `<table>_order_by`, `<table>_select_column`, `<Scalar>_comparison_exp`,
 * `order_by`, `query_root`, so that queries written for the hosted API (and the ts-sdk's typed
 * variables) validate unchanged, and GraphiQL / codegen read the same types by introspection.
 */

/** A Hasura scalar taking numbers or digit strings (`bigint`, `numeric`), checked before any SQL. */
function integerScalar(name: 'bigint' | 'numeric', pattern: RegExp, max?: bigint): GraphQLScalarType {
  const check = (value: unknown): string => {
    const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
    if (typeof text !== 'string' || !pattern.test(text)) {
      throw new GraphQLError(
        `${name} expected: a number or a string of digits (got ${JSON.stringify(value)})`,
      );
    }
    if (max !== undefined && /^-?\d+$/.test(text) && (BigInt(text) > max || BigInt(text) < -max - 1n)) {
      throw new GraphQLError(`${name} out of range: ${text}`);
    }
    return text;
  };
  return new GraphQLScalarType({
    name,
    serialize: (value) => value,
    parseValue: check,
    parseLiteral: (node: ValueNode) => {
      if (node.kind === Kind.INT || node.kind === Kind.FLOAT || node.kind === Kind.STRING)
        return check(node.value);
      throw new GraphQLError(`${name} expected: a number or a string of digits`);
    },
  });
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/;

function parseTimestamp(value: unknown): string {
  if (
    typeof value !== 'string' ||
    !TIMESTAMP.test(value) ||
    Number.isNaN(Date.parse(value.replace(' ', 'T')))
  ) {
    throw new GraphQLError(
      `timestamp expected: ISO 8601 like 2024-04-04T22:38:56.926423 (got ${JSON.stringify(value)})`,
    );
  }
  return value;
}

const timestampScalar = new GraphQLScalarType({
  name: 'timestamp',
  serialize: (value) => value,
  parseValue: parseTimestamp,
  parseLiteral: (node) => {
    if (node.kind !== Kind.STRING) throw new GraphQLError('timestamp expected: a string');
    return parseTimestamp(node.value);
  },
});

const jsonbScalar = new GraphQLScalarType({
  name: 'jsonb',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (node, variables) => valueFromASTUntyped(node, variables),
});

const SCALARS: Record<IndexerScalar, GraphQLScalarType> = {
  String: GraphQLString,
  Boolean: GraphQLBoolean,
  Int: GraphQLInt,
  bigint: integerScalar('bigint', /^-?\d+$/, 9_223_372_036_854_775_807n),
  numeric: integerScalar('numeric', /^-?\d{1,60}(\.\d{1,30})?$/),
  timestamp: timestampScalar,
  jsonb: jsonbScalar,
};

function comparisonType(type: IndexerScalar): GraphQLInputObjectType {
  const scalar = SCALARS[type];
  const list = new GraphQLList(new GraphQLNonNull(scalar));
  const fields: GraphQLInputFieldConfigMap = { _is_null: { type: GraphQLBoolean } };
  for (const op of ['_eq', '_neq'] as const) fields[op] = { type: scalar };
  if (type !== 'jsonb' && type !== 'Boolean') {
    for (const op of ['_gt', '_gte', '_lt', '_lte'] as const) fields[op] = { type: scalar };
  }
  if (type !== 'jsonb') {
    fields['_in'] = { type: list };
    fields['_nin'] = { type: list };
  }
  if (type === 'String') {
    for (const op of ['_like', '_nlike', '_ilike', '_nilike'] as const) fields[op] = { type: GraphQLString };
  }
  if (type === 'jsonb') {
    fields['_contains'] = {
      type: scalar,
      description: 'does the column contain the given json value at the top level',
    };
    fields['_contained_in'] = { type: scalar };
    fields['_has_key'] = { type: GraphQLString };
    fields['_has_keys_any'] = { type: new GraphQLList(new GraphQLNonNull(GraphQLString)) };
    fields['_has_keys_all'] = { type: new GraphQLList(new GraphQLNonNull(GraphQLString)) };
  }
  return new GraphQLInputObjectType({
    name: `${type}_comparison_exp`,
    description: `Boolean expression to compare columns of type "${type}". All fields are combined with logical 'AND'.`,
    fields,
  });
}

const orderByEnum = new GraphQLEnumType({
  name: 'order_by',
  description: 'column ordering options',
  values: {
    asc: { description: 'in ascending order, nulls last' },
    asc_nulls_first: { description: 'in ascending order, nulls first' },
    asc_nulls_last: { description: 'in ascending order, nulls last' },
    desc: { description: 'in descending order, nulls first' },
    desc_nulls_first: { description: 'in descending order, nulls first' },
    desc_nulls_last: { description: 'in descending order, nulls last' },
  },
});

/** Each table's GraphQL types, by table name. */
export interface TableTypes {
  table: IndexerTable;
  object: GraphQLObjectType;
  boolExp: GraphQLInputObjectType;
  orderBy: GraphQLInputObjectType;
  selectColumn: GraphQLEnumType;
  aggregate: GraphQLObjectType;
}

export interface IndexerSchema {
  schema: GraphQLSchema;
  /** The table behind each GraphQL object type name (rows and `_aggregate` alike). */
  tablesByType: Map<string, TableTypes>;
}

export function buildIndexerSchema(): IndexerSchema {
  const comparisons = new Map<IndexerScalar, GraphQLInputObjectType>();
  const comparison = (type: IndexerScalar) => {
    let found = comparisons.get(type);
    if (!found) {
      found = comparisonType(type);
      comparisons.set(type, found);
    }
    return found;
  };
  const types = new Map<string, TableTypes>();
  const typesOf = (name: string): TableTypes => {
    const found = types.get(name);
    if (!found) throw new Error(`relation to unknown table ${name}`);
    return found;
  };

  for (const table of INDEXER_TABLES) {
    const object: GraphQLObjectType = new GraphQLObjectType({
      name: table.name,
      description: table.description,
      fields: () => {
        const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
        for (const [name, column] of Object.entries(table.columns)) {
          const scalar: GraphQLOutputType = SCALARS[column.type];
          fields[name] = { type: column.nullable ? scalar : new GraphQLNonNull(scalar) };
        }
        for (const [name, relation] of Object.entries(table.relations)) {
          fields[name] = { type: typesOf(relation.target).object, description: 'An object relationship' };
        }
        return fields;
      },
    });
    const boolExp: GraphQLInputObjectType = new GraphQLInputObjectType({
      name: `${table.name}_bool_exp`,
      description: `Boolean expression to filter rows from the table "${table.name}". All fields are combined with a logical 'AND'.`,
      fields: () => {
        const fields: GraphQLInputFieldConfigMap = {
          _and: { type: new GraphQLList(new GraphQLNonNull(boolExp)) },
          _not: { type: boolExp },
          _or: { type: new GraphQLList(new GraphQLNonNull(boolExp)) },
        };
        for (const [name, column] of Object.entries(table.columns))
          fields[name] = { type: comparison(column.type) };
        for (const [name, relation] of Object.entries(table.relations)) {
          fields[name] = { type: typesOf(relation.target).boolExp };
        }
        return fields;
      },
    });
    const orderBy = new GraphQLInputObjectType({
      name: `${table.name}_order_by`,
      description: `Ordering options when selecting data from "${table.name}".`,
      fields: () => {
        const fields: GraphQLInputFieldConfigMap = {};
        for (const name of Object.keys(table.columns)) fields[name] = { type: orderByEnum };
        for (const [name, relation] of Object.entries(table.relations)) {
          fields[name] = { type: typesOf(relation.target).orderBy };
        }
        return fields;
      },
    });
    const selectColumn = new GraphQLEnumType({
      name: `${table.name}_select_column`,
      description: `select columns of table "${table.name}"`,
      values: Object.fromEntries(
        Object.keys(table.columns).map((name) => [name, { description: 'column name' }]),
      ),
    });
    const aggregateFields = new GraphQLObjectType({
      name: `${table.name}_aggregate_fields`,
      fields: {
        count: {
          type: new GraphQLNonNull(GraphQLInt),
          args: {
            columns: { type: new GraphQLList(new GraphQLNonNull(selectColumn)) },
            distinct: { type: GraphQLBoolean },
          },
        },
      },
    });
    const aggregate = new GraphQLObjectType({
      name: `${table.name}_aggregate`,
      description: `aggregated selection of "${table.name}"`,
      fields: { aggregate: { type: aggregateFields } },
    });
    types.set(table.name, { table, object, boolExp, orderBy, selectColumn, aggregate });
  }

  const query: GraphQLFieldConfigMap<unknown, unknown> = {};
  const tablesByType = new Map<string, TableTypes>();
  for (const entry of types.values()) {
    const args = {
      distinct_on: {
        type: new GraphQLList(new GraphQLNonNull(entry.selectColumn)),
        description: 'distinct select on columns',
      },
      limit: { type: GraphQLInt, description: 'limit the number of rows returned' },
      offset: { type: GraphQLInt, description: 'skip the first n rows. Use only with order_by' },
      order_by: {
        type: new GraphQLList(new GraphQLNonNull(entry.orderBy)),
        description: 'sort the rows by one or more columns',
      },
      where: { type: entry.boolExp, description: 'filter the rows returned' },
    };
    query[entry.table.name] = {
      type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(entry.object))),
      description: entry.table.description,
      args,
    };
    query[`${entry.table.name}_aggregate`] = {
      type: new GraphQLNonNull(entry.aggregate),
      description: `fetch aggregated fields from the table: "${entry.table.name}"`,
      args,
    };
    tablesByType.set(entry.object.name, entry);
    tablesByType.set(entry.aggregate.name, entry);
  }
  const schema = new GraphQLSchema({ query: new GraphQLObjectType({ name: 'query_root', fields: query }) });
  return { schema, tablesByType };
}
