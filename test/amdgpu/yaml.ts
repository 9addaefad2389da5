/**
 * A reader for the YAML subset LLVM prints AMDGPU metadata in (block maps and sequences
 * by indentation, plain/quoted scalars, `!str` tags, `[]` and simple flow sequences).
 * Written for tests from the printed form; it shares nothing with the emitter.
 */
export type YamlValue = string | number | boolean | null | YamlValue[] | { [key: string]: YamlValue };

interface Line {
  indent: number;
  text: string;
  no: number;
}

export function parseYaml(text: string): YamlValue {
  const lines: Line[] = [];
  text.split("\n").forEach((raw, i) => {
    if (raw.trim() === "" || raw === "---" || raw === "...") return;
    const indent = raw.length - raw.trimStart().length;
    lines.push({ indent, text: raw.trimStart(), no: i + 1 });
  });
  const state = { i: 0 };
  const value = parseBlock(lines, state, lines[0]?.indent ?? 0);
  if (state.i !== lines.length) throw new Error(`YAML: unexpected content at line ${lines[state.i]!.no}: ${lines[state.i]!.text}`);
  return value;
}

function parseBlock(lines: Line[], state: { i: number }, indent: number): YamlValue {
  const first = lines[state.i];
  if (!first || first.indent !== indent) throw new Error(`YAML: expected a block at indent ${indent}`);
  return first.text.startsWith("- ") || first.text === "-" ? parseSequence(lines, state, indent) : parseMap(lines, state, indent);
}

function parseSequence(lines: Line[], state: { i: number }, indent: number): YamlValue[] {
  const out: YamlValue[] = [];
  while (state.i < lines.length && lines[state.i]!.indent === indent && lines[state.i]!.text.startsWith("- ")) {
    const line = lines[state.i]!;
    const rest = line.text.slice(2);
    const inner = indent + 2 + (rest.length - rest.trimStart().length);
    if (/^[^'"[][^:]*:( |$)/.test(rest.trimStart())) {
      // "- key: value": the item is a map whose first line starts after the dash.
      lines[state.i] = { indent: inner, text: rest.trimStart(), no: line.no };
      out.push(parseMap(lines, state, inner));
    } else {
      state.i++;
      out.push(parseScalar(rest.trim(), line.no));
    }
  }
  return out;
}

function parseMap(lines: Line[], state: { i: number }, indent: number): { [key: string]: YamlValue } {
  const out: { [key: string]: YamlValue } = {};
  while (state.i < lines.length && lines[state.i]!.indent === indent && !lines[state.i]!.text.startsWith("- ")) {
    const line = lines[state.i]!;
    const m = /^([^:]+):(?: +(.*))?$/.exec(line.text);
    if (!m) throw new Error(`YAML: expected 'key: value' at line ${line.no}: ${line.text}`);
    const key = m[1]!;
    if (key in out) throw new Error(`YAML: duplicate key '${key}' at line ${line.no}`);
    state.i++;
    if (m[2] !== undefined && m[2] !== "") {
      out[key] = parseScalar(m[2], line.no);
    } else {
      const next = lines[state.i];
      if (next && (next.indent > indent || (next.indent === indent && next.text.startsWith("- ")))) {
        out[key] = parseBlock(lines, state, next.indent);
      } else {
        out[key] = null;
      }
    }
  }
  return out;
}

function parseScalar(s: string, no: number): YamlValue {
  if (s.startsWith("!str ")) return unquote(s.slice(5).trim(), no, true) as string;
  if (s.startsWith("[")) {
    if (!s.endsWith("]")) throw new Error(`YAML: unterminated flow sequence at line ${no}`);
    const body = s.slice(1, -1).trim();
    return body === "" ? [] : body.split(",").map((x) => parseScalar(x.trim(), no));
  }
  return unquote(s, no, false);
}

function unquote(s: string, no: number, forceString: boolean): YamlValue {
  if (s.startsWith("'")) {
    if (!s.endsWith("'") || s.length < 2) throw new Error(`YAML: bad single-quoted scalar at line ${no}`);
    return s.slice(1, -1).replace(/''/g, "'");
  }
  if (s.startsWith('"')) return JSON.parse(s) as string;
  if (forceString) return s;
  if (/^-?\d+$/.test(s)) return Number(s);
  if (/^0x[0-9a-f]+$/i.test(s)) return Number(s);
  if (s === "true") return true;
  if (s === "false") return false;
  if (s === "~" || s === "null") return null;
  return s;
}
