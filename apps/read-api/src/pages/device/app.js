// The device verification page's behaviour. Served from its own URL so the page's
// Content-Security-Policy allows no inline script. The access token from signing in lives only
// in this closure (never in storage or a cookie) and authorizes the approve call as a Bearer
// header: a cross-site page cannot forge that call, so no CSRF token is needed.
'use strict';

(function () {
  var token = null;
  var decideForm = document.getElementById('decide');
  var signIn = document.getElementById('sign-in');
  var status = document.getElementById('status');
  if (!signIn || !decideForm) return;
  var userCode = decideForm.getAttribute('data-user-code');

  function say(message, kind) {
    status.textContent = message;
    status.className = kind || '';
  }

  function describe(body, fallback) {
    if (body && typeof body.message === 'string') return body.hint ? body.message + ' ' + body.hint : body.message;
    return fallback;
  }

  async function call(path, options) {
    var response = await fetch(path, Object.assign({ credentials: 'same-origin', cache: 'no-store' }, options));
    var body = null;
    try {
      body = await response.json();
    } catch (ignored) {
      body = null;
    }
    return { ok: response.ok, status: response.status, body: body };
  }

  signIn.addEventListener('submit', async function (event) {
    event.preventDefault();
    var email = signIn.elements.namedItem('email').value;
    var password = signIn.elements.namedItem('password');
    var button = signIn.querySelector('button');
    button.disabled = true;
    say('Signing in…');
    try {
      var login = await call('/api/v2/auth/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: email, password: password.value }),
      });
      password.value = '';
      if (!login.ok) {
        say(describe(login.body, 'Signing in failed.'), 'error');
        return;
      }
      token = login.body.access_token;
      document.getElementById('who').textContent = email;
      signIn.hidden = true;
      decideForm.hidden = false;
      say('Signed in. Approve only if you started this sign-in on your own device.');
      document.getElementById('approve').focus();
    } catch (error) {
      say('The service could not be reached. Try again.', 'error');
    } finally {
      button.disabled = false;
    }
  });

  decideForm.addEventListener('submit', async function (event) {
    event.preventDefault();
    var decision = event.submitter && event.submitter.value === 'deny' ? 'deny' : 'approve';
    var buttons = decideForm.querySelectorAll('button');
    buttons.forEach(function (b) { b.disabled = true; });
    say(decision === 'approve' ? 'Approving…' : 'Denying…');
    try {
      var result = await call('/api/v2/auth/device/approve', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + token },
        body: JSON.stringify({ user_code: userCode, decision: decision }),
      });
      if (!result.ok) {
        buttons.forEach(function (b) { b.disabled = false; });
        say(describe(result.body, 'The decision could not be recorded.'), 'error');
        return;
      }
      token = null;
      decideForm.hidden = true;
      say(
        result.body.status === 'approved'
          ? 'Device approved. You can close this page and return to your device.'
          : 'Request denied. The device will not be signed in.',
        'done',
      );
    } catch (error) {
      buttons.forEach(function (b) { b.disabled = false; });
      say('The service could not be reached. Try again.', 'error');
    }
  });
})();
