export * from './checkout';
export * from './run-tool';
export { SCANNERS_VERSION } from './report';
export { scanDirectoryForSecrets, scanTextForSecrets } from './secrets/secrets-scanner';
export { SECRET_RULES } from './secrets/secret-rules';
export { redactSecret } from './secrets/redact';
export { scanDirectoryForIac, scanIacText, iacFileKind } from './iac/iac-scanner';
export { IAC_RULES } from './iac/iac-rules';
export { isLockFile, walkFiles, MAX_FILE_BYTES, MAX_FILES, type TRepoFile, type TWalkOptions } from './walk-files';
