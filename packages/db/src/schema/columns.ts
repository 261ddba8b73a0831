import type { ColumnType, Generated } from 'kysely';

/** numeric(20, 0): chain u64 values. pg returns numeric as a string; never parse a price to a number. */
export type U64 = string;
/** timestamptz: read as Date, written as Date or ISO string. */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
export type NullableTimestamp = ColumnType<Date | null, Date | string | null, Date | string | null>;
/** Column with a database default: optional on insert. */
export type Defaulted<T> = ColumnType<T, T | undefined, T>;
export type Json<T> = ColumnType<T, string, string>;
export type { Generated };
