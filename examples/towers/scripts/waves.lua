-- Waves: the road, the enemies walking it, lives, and the end of the game.
--
-- The level places the road's corners (and the base at its end); this script paves the road
-- between them, sends each wave down it, turns every enemy toward its next corner every tick,
-- takes a life for each enemy that reaches the base, and ends the game: "YOU WIN" once the last
-- wave is beaten, "GAME OVER" when the lives run out. The game draws its own ending (game.toml's
-- [flow] banner = false) and starts again itself when the player clicks or presses a key.
local C = ludus.const
local steer = require("steer")

-- Each wave is the list of enemies it sends, one every `spawn_gap` ticks.
local WAVES = {
  { "runner", "runner", "runner", "runner", "runner", "runner" },
  { "runner", "runner", "runner", "tank", "runner", "runner", "runner", "tank" },
  { "tank", "runner", "tank", "runner", "tank", "runner", "runner", "runner", "tank", "tank" },
  { "runner", "runner", "runner", "runner", "tank", "tank", "tank", "runner", "runner", "runner",
    "runner", "tank", "tank", "tank" },
}

local road        -- ids of the corners, in the level's order, then the base
local wave = 0    -- the wave under way or last beaten (shown as the variable "wave")
local to_send = 0 -- enemies of this wave not sent yet
local next_wave   -- tick the next wave starts; nil while a wave is under way

-- Pave the road with a tile every `road_step` units from each corner to the next.
local function pave()
  for i = 1, #road - 1 do
    local ax, ay = ludus.pos(road[i])
    local bx, by = ludus.pos(road[i + 1])
    local len = math.sqrt((bx - ax) ^ 2 + (by - ay) ^ 2)
    local steps = math.floor(len / C.road_step)
    for s = 1, steps - 1 do
      ludus.spawn("road", ax + (bx - ax) * s / steps, ay + (by - ay) * s / steps)
    end
  end
end

local function start_wave()
  wave = wave + 1
  next_wave = nil
  to_send = #WAVES[wave]
  for i = 1, to_send do
    -- The timer's data says which enemy of the wave to send.
    ludus.after((i - 1) * C.spawn_gap, "send", { data = i })
  end
  ludus.set("wave", wave)
  ludus.set("banner", "")
  ludus.sound("wave")
end

-- The end: the HUD's centre says how it ended and how to play again, the field is cleared,
-- and the game keeps running (no ludus.game_over) until the player asks for another go.
local function finish(message)
  ludus.set("ended", ludus.tick())
  ludus.set("banner", message)
  ludus.set("hint", "click, Space or Enter to play again")
  for _, id in ipairs(ludus.find("enemy")) do
    ludus.destroy(id)
  end
end

function on_start()
  road = ludus.find("corner")
  road[#road + 1] = ludus.find("base")[1]
  pave()
  ludus.set("waves", #WAVES)
  next_wave = 1 + C.build_time
end

function on_tick(t)
  if ludus.get("ended") > 0 then
    -- A press after the end starts the game again at the end of this tick, as R does.
    if ludus.pressed("place") or ludus.pressed("next_wave") then
      ludus.restart()
    end
    return
  end
  if next_wave then
    -- Building time: count down, or go now when the player asks.
    if t.tick >= next_wave or ludus.pressed("next_wave") then
      start_wave()
    else
      local seconds = math.ceil((next_wave - t.tick) / 60) -- 60 ticks a second
      ludus.set("banner", ("WAVE %d IN %d"):format(wave + 1, seconds))
    end
  elseif to_send == 0 and ludus.count("enemy") == 0 then
    -- The wave is beaten.
    if wave == #WAVES then
      finish("YOU WIN")
    else
      next_wave = t.tick + C.build_time
    end
  end

  -- March: each enemy heads for the corner its state names ("leg"); within 2 units of it, on
  -- to the next. The last stop is the base, whose trigger takes the enemy.
  for _, id in ipairs(ludus.find("enemy")) do
    local leg = ludus.state(id, "leg")
    local x, y = ludus.pos(id)
    local cx, cy = ludus.pos(road[leg])
    if (cx - x) ^ 2 + (cy - y) ^ 2 < 4 and leg < #road then
      leg = leg + 1
      ludus.set_state(id, "leg", leg)
      cx, cy = ludus.pos(road[leg])
    end
    steer(id, cx, cy)
  end
end

function on_timer(events)
  for _, e in ipairs(events) do
    if e.name == "send" and ludus.get("ended") == 0 then
      -- Enemies appear on the first corner, heading for the second.
      local x, y = ludus.pos(road[1])
      local id = ludus.spawn(WAVES[wave][e.data], x, y)
      ludus.set_state(id, "leg", 2)
      to_send = to_send - 1
    end
  end
end

-- An enemy reaching the base costs a life.
function on_trigger_enter(events)
  local lives = ludus.get("lives")
  local lost = false
  for _, e in ipairs(events) do
    if e.a_kind == "base" and ludus.alive(e.b) then
      ludus.destroy(e.b)
      ludus.effect("leak", e.bx, e.by)
      ludus.sound("leak")
      lives = lives - 1
      lost = true
    end
  end
  if lost then
    ludus.set("lives", math.max(lives, 0))
    if lives <= 0 and ludus.get("ended") == 0 then
      finish("GAME OVER")
    end
  end
end
