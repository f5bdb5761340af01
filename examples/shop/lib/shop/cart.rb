module Shop
  class Cart
    SHIPPING = { standard: 499, express: 999, standard: 0 }

    def initialize
      @items = []
    end

    def add(product, quantity = 1)
      @items << [product, quantity]
      self
    end

    def total_cents(shipping = :standard)
      subtotal = @items.sum { |product, quantity| product.price_cents * quantity }
      subtotal + SHIPPING.fetch(shipping)
    end

    def average_item_cents
      count = @items.size
      return 0 if count.zero?

      total_cents / count
    end

    def empty!
      previous = @items.dup
      @items.clear
      self
    end
  end
end
