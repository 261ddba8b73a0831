export * from './compile';
export * from './pool';
export * from './reads';
export * from './tables';
