# Runtime recorder for scripts/soundness: loaded with `ruby -r`, it traces
# every Ruby-defined method whose file lies under one of the roots in
# SOUNDNESS_ROOTS (colon-separated; default: Ruby's own library directory)
# and, at exit, writes to SOUNDNESS_OUT one JSON object per method: where
# it is defined, and what it really returned and was really given.
#
# A value is described by its class's ancestors (a class-typed member
# admits subclasses), plus its `inspect` for small literals, its size for
# arrays, and its first elements (an array's; a hash's keys and values),
# so a literal, a tuple or an element type can be checked exactly.

require "json"
require "rbconfig"

module SoundnessRecorder
  ROOTS = (ENV["SOUNDNESS_ROOTS"] || RbConfig::CONFIG["rubylibdir"]).split(":").map { |r| File.expand_path(r) + "/" }
  OUT = ENV.fetch("SOUNDNESS_OUT")
  SELF = File.expand_path(__FILE__)
  # Kept small so a long workload stays cheap: distinct values per method.
  MAX_VALUES = 40

  @methods = {}
  @traced_paths = {}
  @depth = 0
  @raise_depth = nil

  class << self
    attr_reader :methods

    def traced?(path)
      cached = @traced_paths[path]
      return cached unless cached.nil?

      @traced_paths[path] = path != SELF && ROOTS.any? { |root| path.start_with?(root) }
    end

    # Module#name itself: a class may redefine `self.name` (Rouge's themes
    # return their theme's name).
    MODULE_NAME = Module.instance_method(:name)

    def name_of(mod)
      MODULE_NAME.bind_call(mod)
    end

    # With what `extend` added to the object itself (Hashie's
    # `IndifferentAccess.inject!(hash)` extends a plain Hash).
    def ancestors_of(value)
      case value
      when Integer, Float, Symbol, true, false, nil then value.class.ancestors
      else value.singleton_class.ancestors
      end
    rescue TypeError
      value.class.ancestors
    end

    # Elements described per array or hash, and how deep: enough to check
    # `Array[String]` and `[1, "a"]` element by element, cheaply.
    ELEMENTS = 8
    ELEMENT_DEPTH = 2

    def describe(value, depth = 0)
      if value.is_a?(Module)
        return { "module" => name_of(value), "ancestors" => value.ancestors.map { |a| name_of(a) }.compact,
                 "is_class" => value.is_a?(Class) }
      end
      described = { "ancestors" => ancestors_of(value).map { |a| name_of(a) }.compact }
      case value
      when Integer, Float, Symbol, true, false, nil
        described["inspect"] = value.inspect
      when String
        described["inspect"] = value.inspect if value.bytesize <= 200
      when Array
        described["size"] = value.size
        if depth < ELEMENT_DEPTH
          described["elements"] = value.first(ELEMENTS).map { |element| describe(element, depth + 1) }
        end
      when Hash
        if depth < ELEMENT_DEPTH
          described["keys"] = value.keys.first(ELEMENTS).map { |key| describe(key, depth + 1) }
          described["values"] = value.values.first(ELEMENTS).map { |v| describe(v, depth + 1) }
        end
      end
      described
    end

    # Owner name and side of the method being traced.
    def owner(tp)
      klass = tp.defined_class
      return nil unless klass

      if klass.singleton_class?
        name = klass.inspect[/\A#<Class:([A-Z][\w:]*)>\z/, 1]
        # A module's own methods may be module_function copies.
        is_module = name && !Object.const_get(name).is_a?(Class)
        name && [name, is_module ? "module" : "singleton"]
      else
        name = name_of(klass)
        name && [name, "instance"]
      end
    end

    def entry(tp)
      found = owner(tp)
      return nil unless found

      key = [tp.path, found[0], found[1], tp.method_id.to_s]
      @methods[key] ||= { "path" => tp.path, "class" => found[0], "kind" => found[1],
                          "method" => tp.method_id.to_s, "returns" => [], "params" => {} }
    end

    def add(list, described)
      list << described if list.size < MAX_VALUES && !list.include?(described)
    end

    def on_call(tp)
      @depth += 1
      @last_event = :call
      return unless traced?(tp.path)

      record = entry(tp)
      return unless record

      binding = tp.binding
      tp.parameters.each_with_index do |(kind, name), index|
        next unless %i[req opt].include?(kind) && name

        value = binding.local_variable_get(name)
        add(record["params"][index.to_s] ||= [], describe(value))
      end
    rescue StandardError
      nil
    end

    def on_return(tp)
      depth = @depth
      @depth -= 1
      value = tp.return_value
      after_block = @last_event == :b_return
      @last_event = :return
      if @throwing
        # The first return after `throw` began: the wrapper's own frame.
        @throwing = false
        @raise_depth = depth
      end
      # A method left by an exception or `throw` also "returns", with nil:
      # skip nil returns of frames one may be passing through.
      if value.nil? && @raise_depth && @raise_depth >= depth
        @raise_depth = depth - 1
        return
      end
      # So does one its block `break`s out of: right after the block.
      return if value.nil? && after_block
      @raise_depth = nil if @raise_depth && depth <= @raise_depth
      return unless traced?(tp.path)

      record = entry(tp)
      add(record["returns"], describe(value)) if record
    rescue StandardError
      nil
    end

    def on_raise
      @raise_depth = @depth
    end

    def on_block_return
      @last_event = :b_return
    end

    def write
      File.open(OUT, "w") do |out|
        @methods.each_value { |record| out.puts(JSON.generate(record)) }
      end
    end
  end

  TRACE = TracePoint.new(:call, :return, :raise, :b_return) do |tp|
    next unless Thread.current == Thread.main

    case tp.event
    when :call then SoundnessRecorder.on_call(tp)
    when :return then SoundnessRecorder.on_return(tp)
    when :raise then SoundnessRecorder.on_raise
    when :b_return then SoundnessRecorder.on_block_return
    end
  end
end

# `throw` unwinds like an exception, without a :raise event.
Kernel.prepend(Module.new do
  def throw(*args)
    # A C call (no trace event of its own) marks the unwinding.
    SoundnessRecorder.instance_variable_set(:@throwing, true)
    super
  end
end)

at_exit do
  SoundnessRecorder::TRACE.disable
  SoundnessRecorder.write
end
SoundnessRecorder::TRACE.enable
