/* api_ui: the dashboard's static assets, embedded at build time (Makefile, UI_ASSETS) and
 * served at /ui/NAME without a token: they are code and style, never data. The pages read
 * the API with the token the person gives them. No build step, nothing from the network. */
#include <stdlib.h>
#include <string.h>

#include "api.h"

extern const char api_ui_kopt_js[], api_ui_kopt_css[];
extern const unsigned long api_ui_kopt_js_len, api_ui_kopt_css_len;

static const struct {
  const char *path;          /* after /ui/ */
  const char *data;
  const unsigned long *len;
  const char *ctype;
} api_ui_assets[] = {
  { "kopt.js", api_ui_kopt_js, &api_ui_kopt_js_len, "text/javascript; charset=utf-8" },
  { "kopt.css", api_ui_kopt_css, &api_ui_kopt_css_len, "text/css; charset=utf-8" },
};

enum api_route api_ui_match(struct api_req *r, const char *url)
{
  for (size_t i = 0; i < sizeof(api_ui_assets) / sizeof(api_ui_assets[0]); i++)
    if (!strcmp(url + 4, api_ui_assets[i].path)) {
      r->ui_asset = (int)i;
      return ROUTE_UI_ASSET;
    }
  return ROUTE_NONE;
}

void api_ui_serve(struct api_req *r)
{
  unsigned long n = *api_ui_assets[r->ui_asset].len;
  char *s = malloc(n + 1);
  if (s) {
    memcpy(s, api_ui_assets[r->ui_asset].data, n);
    s[n] = '\0';
  }
  api_resp_set(r, 200, api_ui_assets[r->ui_asset].ctype, s);
}
