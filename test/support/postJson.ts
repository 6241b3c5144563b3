/** POSTs `body` as JSON to a listening node over a real connection; the status and the text answered. */
export async function postJson(
  url: string,
  body: unknown,
): Promise<{ status: number; text: string }> {
  const r = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: r.status, text: await r.text() };
}
