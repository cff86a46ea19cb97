-- Nothing but a second script, to check load order.
local answer = 42
