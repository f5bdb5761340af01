# A tiny shop: the example project bundled with Rigor's MCP gateway.
require_relative "shop/product"
require_relative "shop/cart"
require_relative "shop/invoice"

module Shop
  VERSION = "1.0.0"
end
