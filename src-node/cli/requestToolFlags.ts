/**
 * The flags of the request-file tool (cli/requestTool.ts), apart from the tool itself so
 * that the CLI's dispatcher can route them without loading it.
 * @module
 */

/** The flags this tool answers to (short and long forms). */
export const REQUEST_TOOL_FLAGS = [
  "-g",
  "--genkey",
  "-a",
  "--apireq",
  "-u",
  "--unsigned",
  "-l",
  "--local",
  "-c",
  "--condensed",
] as const;
