/**
 * An expected way for a command to end badly (a denied sign-in, a bad combination of options):
 * its message is printed as is, without a stack, and the process exits with `exitCode`.
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
