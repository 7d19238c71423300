const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Text for HTML element content or a quoted attribute value: the five markup characters as entities.
 * The one escape of the HTML pages the apps serve (the gateway's reference pages, verification's
 * portal and report pages); RSS is XML and escapes for XML (public-status rss-feed.ts).
 */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ENTITIES[c]);
