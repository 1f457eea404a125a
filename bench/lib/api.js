/**
 * A JSON call to Cairn's API with a personal access token: resolves with the parsed answer (an
 * empty object for none) and throws, with the answer's text, on anything but 2xx.
 * @param {string} baseUrl
 * @param {string} token
 */
export function apiCaller(baseUrl, token) {
  /**
   * @param {string} method
   * @param {string} path
   * @param {string | Buffer} [body]
   * @param {string} [type]
   * @returns {Promise<any>}
   */
  return async function call(method, path, body, type = 'application/json') {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': type }),
      },
      body,
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return text ? JSON.parse(text) : {};
  };
}
