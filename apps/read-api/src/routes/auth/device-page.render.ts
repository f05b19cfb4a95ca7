// The verification page's HTML. Everything interpolated is escaped; nothing secret is ever in
// it (the user code is not a secret once the user holds it, and the access token from signing
// in never leaves the script's memory).
import { DEVICE_SCOPES, DEVICE_VERIFICATION_PATH, formatUserCode } from '@palisade/domain';
import type { TDevicePageRequest } from './device-page.lookup';

const ASSETS = { script: `${DEVICE_VERIFICATION_PATH}/app.js`, style: `${DEVICE_VERIFICATION_PATH}/app.css` };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function scopeItem(scope: string): string {
  const known = (DEVICE_SCOPES as Record<string, { description: string }>)[scope];
  return `<li><code>${escapeHtml(scope)}</code>${known ? ` — ${escapeHtml(known.description)}` : ''}</li>`;
}

function codeForm(prefill: string, message?: string): string {
  return `
    ${message ? `<p class="error" role="alert">${escapeHtml(message)}</p>` : ''}
    <p>Enter the code shown on your device.</p>
    <form id="code-form" method="get" action="${DEVICE_VERIFICATION_PATH}">
      <label>Code
        <input name="user_code" value="${escapeHtml(prefill)}" placeholder="XXXX-XXXX" maxlength="32" required
          autocomplete="off" autocapitalize="characters" spellcheck="false" autofocus>
      </label>
      <button type="submit">Continue</button>
    </form>`;
}

function pendingSection(request: Extract<TDevicePageRequest, { kind: 'pending' }>): string {
  const shown = formatUserCode(request.userCode);
  return `
    <p>Check that this code matches the one on your device:</p>
    <p class="code" id="user-code">${escapeHtml(shown)}</p>
    <p><strong id="client-name">${escapeHtml(request.clientName)}</strong> (<code>${escapeHtml(request.clientId)}</code>) asks to:</p>
    <ul class="scopes" id="scopes">${request.scopes.map(scopeItem).join('')}</ul>
    <form id="sign-in">
      <label>Email <input name="email" type="email" autocomplete="username" maxlength="320" required></label>
      <label>Password <input name="password" type="password" autocomplete="current-password" maxlength="1024" required></label>
      <button type="submit">Sign in</button>
    </form>
    <form id="decide" data-user-code="${escapeHtml(shown)}" hidden>
      <p>Signed in as <strong id="who"></strong>.</p>
      <div class="buttons">
        <button type="submit" id="approve" name="decision" value="approve">Approve</button>
        <button type="submit" id="deny" name="decision" value="deny">Deny</button>
      </div>
    </form>
    <noscript><p class="error">This page needs JavaScript to sign you in.</p></noscript>`;
}

function body(request: TDevicePageRequest): string {
  switch (request.kind) {
    case 'pending':
      return pendingSection(request);
    case 'decided':
      return codeForm('', `The code ${formatUserCode(request.userCode)} was already used. Start the sign-in again on your device for a new one.`);
    case 'unknown':
      return codeForm(request.typed.slice(0, 32), 'No device is waiting for this code, or it expired. Check the code on your device.');
    case 'too_many_guesses':
      return `<p class="error" role="alert">Too many wrong codes. Wait ${Math.ceil(request.retryAfterSeconds / 60)} minutes and try again.</p>`;
    case 'none':
      return codeForm('');
  }
}

export function renderDevicePage(request: TDevicePageRequest): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <title>Sign in a device · Palisade</title>
  <link rel="stylesheet" href="${ASSETS.style}">
  <script src="${ASSETS.script}" defer></script>
</head>
<body>
  <main>
    <h1>Sign in a device</h1>
    ${body(request)}
    <p id="status" role="status" aria-live="polite"></p>
  </main>
</body>
</html>
`;
}
