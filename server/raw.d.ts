/** Nitro's `raw:` imports: a file's text, bundled into the server. */
declare module 'raw:*' {
  const text: string
  export default text
}
