/** A connection URL safe to print: the password is replaced by ***. */
export function redactUrl(url: string): string {
  return url.replace(/(\/\/[^:/@]+):[^@/]*@/, '$1:***@');
}
