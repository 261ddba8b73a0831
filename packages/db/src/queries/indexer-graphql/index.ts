export * from './compile';
export * from './tables';
