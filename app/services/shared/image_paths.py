"""Where the HTTP surface (app/api) serves uploaded images, for the reads that link to them."""

PRODUCT_IMAGE_PATH = "/api/store/images/{id}"
