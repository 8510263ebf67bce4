import type { JsonSchema } from './json-schema'

type Components = Record<string, JsonSchema>

const MAX_ENUM = 8

/** The component a `$ref` names, or undefined. */
export const refName = (schema: JsonSchema) => (typeof schema.$ref === 'string' ? schema.$ref.split('/').pop() : undefined)

/** A schema, or the component its `$ref` names. */
export const resolve = (schema: JsonSchema, components: Components): JsonSchema => components[refName(schema) ?? ''] ?? schema

const members = (schema: JsonSchema) => (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined

/** A schema as a short type, TypeScript-like: `string`, `TaskStatus`, `"a" | "b"`, `Action[]`, `{taskId, status?}`. */
export function typeWords(schema: JsonSchema, maxEnum = MAX_ENUM): string {
  const ref = refName(schema)
  if (ref) return ref
  if (schema.const !== undefined) return JSON.stringify(schema.const)
  if (Array.isArray(schema.enum)) {
    const values = schema.enum.slice(0, maxEnum).map((v) => JSON.stringify(v))
    return [...values, ...(schema.enum.length > maxEnum ? ['…'] : [])].join(' | ')
  }
  const union = members(schema)
  if (union) return union.map(typeWords).join(' | ')
  if (Array.isArray(schema.allOf)) return (schema.allOf as JsonSchema[]).map(typeWords).join(' & ')
  if (Array.isArray(schema.type)) return schema.type.map((type) => typeWords({ ...schema, type })).join(' | ')
  switch (schema.type) {
    case 'array': {
      const item = typeWords((schema.items as JsonSchema | undefined) ?? {})
      return /[ |&]/.test(item) && !item.startsWith('{') ? `(${item})[]` : `${item}[]`
    }
    case 'object': {
      const properties = schema.properties as Record<string, JsonSchema> | undefined
      const required = (schema.required as string[] | undefined) ?? []
      // A member of a tagged union is told by its tag's value: `{type: "click", index?, …}`.
      const key = (k: string) => `${required.includes(k) ? k : `${k}?`}${properties![k]!.const !== undefined ? `: ${JSON.stringify(properties![k]!.const)}` : ''}`
      if (properties) return `{${Object.keys(properties).map(key).join(', ')}}`
      const values = schema.additionalProperties
      return values && typeof values === 'object' ? `{[key]: ${typeWords(values as JsonSchema)}}` : 'object'
    }
    case undefined:
      return 'any'
    default:
      return String(schema.type)
  }
}

const range = (min: unknown, max: unknown, unit: string) =>
  min === undefined && max === undefined ? [] : [`${min ?? 0}–${max ?? '∞'}${unit}`]

/** What a field's schema checks beyond its type: lengths, bounds, pattern, format, default. */
export function ruleWords(schema: JsonSchema): string {
  return [
    ...range(schema.minLength, schema.maxLength, ' chars'),
    ...range(schema.minimum, schema.maximum, ''),
    ...range(schema.minItems, schema.maxItems, ' items'),
    ...(typeof schema.pattern === 'string' ? [`\`${schema.pattern.replace(/\|/g, '\\|')}\``] : []),
    ...(typeof schema.format === 'string' ? [schema.format] : []),
    ...(schema.default !== undefined ? [`default ${JSON.stringify(schema.default)}`] : []),
  ].join(', ')
}

/** The fields of an object schema (through its `$ref`): name, schema, required. */
export function fieldsOf(schema: JsonSchema, components: Components): { name: string; schema: JsonSchema; required: boolean }[] {
  const object = resolve(schema, components)
  const properties = (object.properties as Record<string, JsonSchema> | undefined) ?? {}
  const required = (object.required as string[] | undefined) ?? []
  return Object.entries(properties).map(([name, field]) => ({ name, schema: field, required: required.includes(name) }))
}

/** The components a schema refers to, directly or through others, each once. */
export function refsOf(schema: unknown, components: Components, found = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) schema.forEach((s) => refsOf(s, components, found))
  else if (schema && typeof schema === 'object') {
    const ref = refName(schema as JsonSchema)
    if (ref && !found.has(ref)) {
      found.add(ref)
      refsOf(components[ref], components, found)
    }
    Object.values(schema).forEach((s) => refsOf(s, components, found))
  }
  return found
}

/** A named shape in one line, its fields with their types: `{taskId: string, status: TaskStatus}`. */
export function shapeWords(schema: JsonSchema): string {
  const properties = schema.properties as Record<string, JsonSchema> | undefined
  if (schema.type !== 'object' || !properties) return typeWords(schema, Infinity)
  const required = (schema.required as string[] | undefined) ?? []
  return `{${Object.entries(properties).map(([k, v]) => `${k}${required.includes(k) ? '' : '?'}: ${typeWords(v)}`).join(', ')}}`
}
