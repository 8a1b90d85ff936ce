import html from 'html-template-tag';

export const STYLESHEET = `
:root { font-family: system-ui, sans-serif; color: #1d2b24; background: #f6f4ef; }
body { max-width: 60rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; }
header { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: .5rem 1rem; margin-bottom: 1.5rem; }
header a.brand { color: #2f6b4f; font-weight: 700; text-decoration: none; font-size: 1.25rem; }
header nav { display: flex; flex-wrap: wrap; align-items: center; justify-content: flex-end; gap: .5rem 1rem; }
header nav a { color: #2f6b4f; font-weight: 600; text-decoration: none; }
header nav a:hover, header nav a:focus { text-decoration: underline; }
header .who { color: #5b6b62; font-size: .9em; overflow-wrap: anywhere; }
main { background: #fff; border-radius: 12px; padding: 1.5rem; box-shadow: 0 1px 3px rgb(0 0 0 / 8%); }
label { display: block; margin: .75rem 0 .25rem; font-weight: 600; }
input[type=text], input[type=email], input[type=password], input[type=number], select, textarea { width: 100%; padding: .5rem; border: 1px solid #b9c4bd; border-radius: 6px; font: inherit; box-sizing: border-box; }
button { margin-top: 1rem; padding: .5rem 1rem; border: 0; border-radius: 6px; background: #2f6b4f; color: #fff; font: inherit; cursor: pointer; }
button.secondary { background: #8a3b2c; }
button.chosen { outline: 3px solid #d9a400; outline-offset: 3px; }
a.button { display: inline-block; margin-top: 1rem; padding: .5rem 1rem; border-radius: 6px; background: #24466b; color: #fff; text-decoration: none; }
table { width: 100%; border-collapse: collapse; margin: .5rem 0 1rem; }
th, td { text-align: left; padding: .4rem .3rem; border-bottom: 1px solid #e3e7e4; vertical-align: top; }
.error { color: #8a3b2c; font-weight: 600; }
th.amount, td.amount { text-align: right; white-space: nowrap; }
input, select, textarea { max-width: 36rem; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.notice { color: #2f6b4f; font-weight: 600; }
.muted { color: #5b6b62; font-size: .9em; }
nav.sections { margin: .5rem 0 1rem; }
h3 { margin-bottom: .25rem; }
td form { margin: 0; }
td form button { margin-top: .35rem; }
td label { margin-top: 0; }
label.check { font-weight: 400; }
label.check input { margin-right: .4rem; }
details { margin: .5rem 0 1.5rem; }
summary { cursor: pointer; color: #2f6b4f; font-weight: 600; }
.secret { font-family: ui-monospace, monospace; background: #eef4f0; padding: .5rem; border-radius: 6px; word-break: break-all; }
.scopes { margin: 0; padding-left: 1.1rem; }
.test-banner { background: #fff3c4; border: 2px dashed #b8860b; padding: .75rem; border-radius: 8px; }
header form { display: flex; flex-wrap: wrap; align-items: center; justify-content: flex-end; gap: .5rem; margin: 0; }
header form button { margin-top: 0; }
.home-grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: 1rem 2rem; }
fieldset { border: 1px solid #d6ddd8; border-radius: 6px; margin: .75rem 0; }
blockquote.summary { margin: 1rem 0; padding: .75rem 1rem; border-left: 4px solid #2f6b4f; background: #eef4f0; white-space: pre-line; }
form.answer { display: flex; flex-wrap: wrap; gap: 1rem; }
code.url { background: #eef4f0; padding: .1rem .3rem; border-radius: 4px; overflow-wrap: anywhere; }
/* Phones: a table's rows become stacked cards, so nothing runs off the side of the screen. */
@media (max-width: 40rem) {
  body { margin: 1rem auto; }
  main { padding: 1rem; }
  table, tbody, tr, td { display: block; }
  tr:has(th) { display: none; }
  tr { border-bottom: 1px solid #e3e7e4; padding: .5rem 0; }
  td { border: 0; padding: .15rem 0; }
  td[data-label]::before { content: attr(data-label) ": "; font-weight: 600; }
  td button { margin-top: .25rem; }
  td.amount { text-align: left; }
}
`;

/** The site's icon: a paw, white on the pages' green. SVG, so one file serves every size. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
<rect width="64" height="64" rx="14" fill="#2f6b4f"/>
<g fill="#fff">
<ellipse cx="32" cy="42" rx="13" ry="10"/>
<ellipse cx="17" cy="27" rx="5.5" ry="7"/>
<ellipse cx="47" cy="27" rx="5.5" ry="7"/>
<ellipse cx="25" cy="16" rx="5" ry="6.5"/>
<ellipse cx="39" cy="16" rx="5" ry="6.5"/>
</g>
</svg>
`;

/** Which of the header's links a signed-in person gets (pageHeaderOf in @nogpets/operations). */
export interface HeaderNav {
  applicant: boolean;
  operator: boolean;
}

/**
 * The signed-in person as the header shows them: the session the pages' requireSession and
 * signedIn give, whose `nav` says which links they get.
 */
export interface SignedInHeader {
  user: { email: string };
  csrf: string;
  nav?: HeaderNav;
}

/**
 * The same navigation on every page. Signed in: the account, the applications (for applicants),
 * the operator console (for operators) and sign out. Signed out: sign in and sign up.
 */
function headerNav(signedIn: SignedInHeader | undefined): string {
  if (!signedIn)
    return html`<nav aria-label="Site"><a href="/signin">Sign in</a><a href="/signup">Sign up</a></nav>`;
  const links = [
    html`<a href="/account">Account</a>`,
    signedIn.nav?.applicant ? html`<a href="/business/applications">Applications</a>` : '',
    signedIn.nav?.operator ? html`<a href="/operator">Console</a>` : '',
  ].join('');
  return html`<nav aria-label="Site">$${links}<form method="post" action="/signout"><input type="hidden" name="csrf" value="${signedIn.csrf}"><span class="who">${signedIn.user.email}</span> <button type="submit">Sign out</button></form></nav>`;
}

/** One page: escaped by html-template-tag, so text from people can never become markup. */
export function page(title: string, body: string, signedIn?: SignedInHeader): string {
  return html`<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${title} · NogPets</title>
  <link rel="icon" type="image/svg+xml" href="/favicon.svg">
  <link rel="stylesheet" href="/static/site.css">
</head>
<body>
  <header>
    <a class="brand" href="/">NogPets</a>
    $${headerNav(signedIn)}
  </header>
  <main>
    <h1>${title}</h1>
    $${body}
  </main>
</body>
</html>`;
}
