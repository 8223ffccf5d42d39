// What went wrong in an upload, read from the uploader's output, said so a person can act.

const PROBLEMS: Array<[RegExp, (match: RegExpExecArray, port: string) => string]> = [
  [
    /verification error, first mismatch at byte (0x[0-9a-f]+)/i,
    (match) => `verify failed: flash differs from the image at byte ${match[1]}; the board may be damaged or the wrong part selected — upload again`,
  ],
  [
    /(\d+) bytes of flash written[\s\S]*?content mismatch/i,
    () => 'verify failed: the flash does not hold the image that was written; upload again',
  ],
  [
    /not in sync|programmer is not responding|stk500_getsync/i,
    (_, port) => `no bootloader answered on ${port}: check the port and board selection, or press reset just before uploading`,
  ],
  [
    /can't open device|could not open port|No such file or directory/i,
    (_, port) => `cannot open ${port}: check the cable and run \`boardbridge ports\``,
  ],
  [/Device signature = (0x[0-9a-f]+)[\s\S]*?Expected signature/i, (match) => `wrong chip: its signature is ${match[1]}; pick the right board (FQBN)`],
];

export function uploadProblem(output: string, port: string): string | undefined {
  for (const [pattern, describe] of PROBLEMS) {
    const match = pattern.exec(output);
    if (match) return describe(match, port);
  }
  return undefined;
}

/** `avrdude: 1926 bytes of flash verified` */
export function verifiedBytes(output: string): number | undefined {
  const match = /(\d+) bytes of flash verified/.exec(output);
  return match ? Number(match[1]) : undefined;
}
