-- Touches: a magenta mark under each finger down (spawned when it goes down, moved with it,
-- gone when it lifts) and a yellow ring where the pointer is, so the page sees where the
-- game put them; `touches` says how many fingers are down, once any has been.
local marks = {}   -- finger id -> its mark
local ids = {}     -- the finger ids with a mark, in the order they went down
local ring
local counted = 0

function on_tick()
  local down = {}
  local touches = ludus.touches()
  for _, f in ipairs(touches) do
    down[f.id] = true
    if marks[f.id] then
      ludus.teleport(marks[f.id], f.x, f.y)
    else
      marks[f.id] = ludus.spawn("mark", f.x, f.y)
      ids[#ids + 1] = f.id
    end
  end
  for i = #ids, 1, -1 do
    local id = ids[i]
    if not down[id] then
      ludus.destroy(marks[id])
      marks[id] = nil
      table.remove(ids, i)
    end
  end
  local x, y = ludus.pointer()
  if x and ring then
    ludus.teleport(ring, x, y)
  elseif x then
    ring = ludus.spawn("ring", x, y)
  end
  if #touches ~= counted then
    counted = #touches
    ludus.set("touches", counted)
  end
end
