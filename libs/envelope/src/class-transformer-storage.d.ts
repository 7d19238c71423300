// class-transformer's CommonJS build has the @Type registry at cjs/storage without typings of its own.
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
