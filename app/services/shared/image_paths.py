"""Where the HTTP surface (api/) serves uploaded images, for the reads that link to them."""

PRODUCT_IMAGE_PATH = "/api/store/images/{id}"
