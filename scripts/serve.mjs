// Starts the built server on loopback unless NITRO_HOST/HOST says otherwise.
process.env.NITRO_HOST ??= process.env.HOST || '127.0.0.1'
process.env.NITRO_PORT ??= process.env.PORT || '3000'
await import('../.output/server/index.mjs')
