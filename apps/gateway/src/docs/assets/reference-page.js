// Starts Swagger UI on the reference page. Kept out of the HTML so the page needs no inline script
// (the gateway's Content-Security-Policy allows scripts from 'self' only).
(function () {
  const root = document.getElementById('reference');
  const select = document.getElementById('language');
  select.addEventListener('change', function () {
    const url = new URL(window.location.href);
    url.searchParams.set('lang', select.value);
    window.location.assign(url.toString());
  });
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-spec'),
    dom_id: '#reference',
    deepLinking: true,
    persistAuthorization: true,
    displayRequestDuration: true,
    presets: [SwaggerUIBundle.presets.apis],
    // "Try it out" asks in the page's language: the API's `error` texts come back in the language
    // the reader chose, not the browser's Accept-Language.
    requestInterceptor: function (req) {
      req.headers['Language-Code'] = document.documentElement.lang || 'en';
      return req;
    },
  });
})();
