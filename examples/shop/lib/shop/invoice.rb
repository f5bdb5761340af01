module Shop
  class Invoice
    def initialize(cart, customer)
      @cart = cart
      @customer = customer
    end

    def render
      lines = ["Invoice for #{@customer}"]
      lines << format("Total: %.2f", @cart.total_cents / 100.0)
      lines.join("\n")
    ensure
      return "(invoice unavailable)" if @cart.nil?
    end

    def tax_rate
      if true
        0.2
      else
        0.0
      end
    end

    def per_unit_share
      @cart.total_cents / 0
    end

    def rounding_check
      1 / 0
    end
  end
end
