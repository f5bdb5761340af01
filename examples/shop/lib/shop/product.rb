module Shop
  class Product
    attr_reader :name, :price_cents, :tags

    def initialize(name, price_cents, tags = [])
      @name = name
      @price_cents = price_cents
      @tags = tags
    end

    def price
      price_cents / 100.0
    end

    def discounted?(threshold)
      price_cents < threshold
    end
  end
end
