import { z } from 'zod'
import * as protocol from '#protocol'

export type JsonSchema = Record<string, unknown>
export type Io = 'input' | 'output'

const DEFS = '#/$defs/'
const COMPONENTS = '#/components/schemas/'

/** Every zod schema protocol/ exports, under its export name: the names the reference gives shared shapes. */
function protocolRegistry() {
  const registry = z.registry<{ id: string }>()
  const alias = (name: string) => /(Body|Query|Params)$/.test(name)
  for (const [name, value] of Object.entries(protocol)) {
    if (!(value instanceof z.ZodType)) continue
    // A rule exported again as the body of the route that takes it (ForgetWriteBody) is named for what it is.
    const had = registry.get(value)?.id
    if (!had || (alias(had) && !alias(name))) registry.add(value, { id: name })
  }
  return registry
}

/** `$ref`s into `$defs` made into refs to the document's components, under the names `nameOf` gives. */
function pointAtComponents(value: unknown, nameOf: (name: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => pointAtComponents(v, nameOf))
  if (!value || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      key,
      key === '$ref' && typeof v === 'string' && v.startsWith(DEFS) ? COMPONENTS + nameOf(v.slice(DEFS.length)) : pointAtComponents(v, nameOf),
    ]),
  )
}

const SUFFIX: Record<Io, string> = { input: 'Input', output: 'Output' }

/**
 * JSON Schemas of zod schemas as an OpenAPI document holds them: a shape protocol/ exports by name is a component
 * under that name, referred to by `$ref`. A request is described as the server reads it (`io: 'input'`: defaults
 * make a field optional), an answer as it is written (`output`). One name is one shape: a schema that reads
 * differently in and out (a transform, a default), and whatever holds it, is named for its side the second time.
 */
export function createSchemaSet() {
  const registry = protocolRegistry()
  const components = new Map<string, { io: Io; schema: JsonSchema }>()

  function keep(name: string, io: Io, schema: JsonSchema) {
    const had = components.get(name)
    if (had && JSON.stringify(had.schema) !== JSON.stringify(schema)) {
      throw new Error(`protocol's ${name} reads differently as ${had.io} and as ${io}: give one of them a name of its own`)
    }
    if (!had) components.set(name, { io, schema })
  }

  return {
    /** The schema to put in the document: a `$ref` for a named shape, else the shape with refs to the named ones inside. */
    of(schema: z.ZodType, io: Io): JsonSchema {
      const { $schema: _, $defs, ...root } = z.toJSONSchema(schema, { io, unrepresentable: 'any', metadata: registry }) as JsonSchema & { $defs?: Record<string, JsonSchema> }
      // A named schema comes back as a `$ref` to its own entry in `$defs`.
      const defs = Object.entries($defs ?? {})
      const sided = new Set<string>()
      const nameOf = (name: string) => (sided.has(name) ? name + SUFFIX[io] : name)
      const point = (value: unknown) => pointAtComponents(value, nameOf) as JsonSchema
      const differs = ([name, def]: [string, JsonSchema]) => {
        const had = components.get(name)
        return !sided.has(name) && !!had && JSON.stringify(had.schema) !== JSON.stringify(point(def))
      }
      // Renaming one shape changes every shape that refers to it: until none more differs.
      for (let grown = defs.filter(differs); grown.length; grown = defs.filter(differs)) grown.forEach(([name]) => sided.add(name))
      for (const [name, def] of defs) keep(nameOf(name), io, point(def))
      return point(root)
    },
    /** Every named shape used so far, by name. */
    components(): Record<string, JsonSchema> {
      return Object.fromEntries([...components].sort(([a], [b]) => a.localeCompare(b)).map(([name, { schema }]) => [name, schema]))
    },
  }
}
