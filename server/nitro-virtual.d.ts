/** The polyfills Nitro's build puts in for the preset, which the server's entry imports first as Nitro's own do. */
declare module '#nitro-internal-pollyfills'
