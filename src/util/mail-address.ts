/** The address of a From value: `name@domain` as it is, or the one inside `Name <name@domain>`. */
export function addressOf(from: string): string {
  return /^[^<>]*<([^<>]*)>\s*$/.exec(from)?.[1] ?? from;
}
