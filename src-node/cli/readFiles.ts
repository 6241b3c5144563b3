/**
 * Reading the files the CLI is given: text with a coded error naming the
 * file when it cannot be read, and YAML files parsed into values.
 * @module
 */
import { readFileSync } from "node:fs";
import { cliError } from "./errors.ts";
import { parseYamlText, type YamlValue } from "./yamlValue.ts";

/**
 * Reads a UTF-8 text file.
 * @param file the name used in errors (the path as the user wrote it).
 * @param field the field that named this file (`codeFile`), or "".
 * @throws {CliError} CLI_READ_FAILED.
 */
export function readTextFile(path: string, file: string, field = ""): string {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    const reason =
      typeof e === "object" && e !== null && "code" in e && e.code === "ENOENT"
        ? "no such file"
        : e instanceof Error
          ? e.message
          : String(e);
    throw cliError("CLI_READ_FAILED", file, field, `cannot read ${path}: ${reason}`, e);
  }
}

/** Reads and parses a YAML (or JSON) file; errors name `path`. */
export function readYamlFile(path: string): YamlValue {
  return parseYamlText(readTextFile(path, path), path);
}
