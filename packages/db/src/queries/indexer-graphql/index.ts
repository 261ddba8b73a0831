export * from './compile';
export * from './pool';
export * from './tables';
