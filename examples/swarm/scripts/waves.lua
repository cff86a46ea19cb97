-- Waves: a repeating timer spawns a growing group of enemies at the arena's edges.
local C = ludus.const
local wave = 0

local HALF_W, HALF_H = 880, 580

-- A random point on the arena's edge.
local function edge_point()
  local side = ludus.random(4)
  if side == 1 then return -HALF_W, ludus.random(-HALF_H, HALF_H) end
  if side == 2 then return HALF_W, ludus.random(-HALF_H, HALF_H) end
  if side == 3 then return ludus.random(-HALF_W, HALF_W), -HALF_H end
  return ludus.random(-HALF_W, HALF_W), HALF_H
end

function on_start()
  ludus.set("wave", 0)
  ludus.every(C.wave_every, "wave", { delay = C.first_wave })
end

function on_timer(events)
  for _, t in ipairs(events) do
    if t.name == "wave" then
      wave = wave + 1
      ludus.set("wave", wave)
      ludus.sound("wave")
      for _ = 1, C.wave_size + (wave - 1) * C.wave_growth do
        local kind = "grunt"
        if wave >= C.brute_from and ludus.random() < 0.2 then
          kind = "brute"
        end
        local x, y = edge_point()
        ludus.spawn(kind, x, y)
      end
    end
  end
end
