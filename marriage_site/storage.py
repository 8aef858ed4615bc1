"""Static files in production: whitenoise's compressed, content-hashed storage,
with the browser's ES modules importing each other by their hashed names."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    """The modules in static/js import each other by relative names
    (`import * as engine from "./settlement.js";`); collectstatic rewrites each
    to the hashed name (`./settlement.3f1c….js`), as it does the URLs in CSS, so a
    page and the modules it imports are always of the same deploy."""

    support_js_module_import_aggregation = True
