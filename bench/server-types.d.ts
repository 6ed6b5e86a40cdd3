// The server declares the types of oidc-provider in an ambient file that only its own tsconfig
// includes; the benchmarks reach that code through buildApp, so they need the same declaration.
// It is a script file (no exports), which cannot be imported, hence the reference.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../apps/server/src/auth/idp/oidc-provider.d.ts" />
// The upload benchmark's --s3 mode starts the S3 server the server's tests use.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../apps/server/src/storage/s3rver.d.ts" />
