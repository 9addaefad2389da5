/** Small constructors for ops that passes create. */
import { Op, Value, type Literal, type Span } from "./core.js";
import { isFloat, type PrimType } from "./types.js";

/** A constant op: no operands, one result. */
export type ConstantOp = Op & { results: [Value] };

/** A constant of any `index`, `offset`, integer or float type, as its canonical op. */
export function makeConstant(type: PrimType, value: bigint | number | boolean, name: string, span?: Span): ConstantOp {
  const isAddr = type.name === "index" || type.name === "offset";
  const op = new Op(isAddr ? "index.constant" : "scalar.constant", span);
  let lit: Literal;
  if (typeof value === "boolean") lit = { kind: "bool", value };
  else if (isFloat(type)) lit = { kind: "float", value: Number(value) };
  else lit = { kind: "int", value: BigInt(value) };
  op.props = { value: lit };
  const results: [Value] = [new Value(name, type, op, span)];
  return Object.assign(op, { results });
}

/** The integer or float value of a constant op, or undefined. */
export function constantValue(op: Op | undefined): bigint | number | boolean | undefined {
  if (!op || (op.name !== "index.constant" && op.name !== "scalar.constant")) return undefined;
  // ir/ sits below the op registry, so the literal is narrowed by shape rather than by `isOp`.
  const lit = op.props.value;
  const v = typeof lit === "object" && lit !== null && "value" in lit ? lit.value : undefined;
  return typeof v === "bigint" || typeof v === "number" || typeof v === "boolean" ? v : undefined;
}
