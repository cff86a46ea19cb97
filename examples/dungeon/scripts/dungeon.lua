-- Dungeon's rules: the sword, the dash, hits, scared foes, hurting the hero, winning.
local C = ludus.const

-- Each kind of foe's own behaviour, to go back to once it is no longer scared (as its
-- archetype declares it in game.toml).
local CALM = {
  slime = { speed = 55, range = 150, cadence = 20 },
  bat = { speed = 95, range = 220, cadence = 10 },
}

local function count_foes()
  ludus.set("foes", ludus.count("foe"))
end

function on_start()
  ludus.set("hp", C.hero_health)
  count_foes()
end

-- J thrusts a sword out the way the hero faces, attached there so that it moves with the
-- hero for its short life; K dashes: a burst of speed for a few ticks.
function on_action(events)
  for _, e in ipairs(events) do
    if e.action == "attack" then
      local fx, fy = ludus.facing(e.id)
      local dx, dy = fx * C.reach, fy * C.reach
      local sword = ludus.spawn("sword", e.x + dx, e.y + dy)
      ludus.set_angle(sword, math.atan(fy, fx))
      ludus.attach(sword, e.id, dx, dy)
      ludus.sound("swing")
    elseif e.action == "dash" then
      ludus.set_speed(e.id, C.dash_speed)
      ludus.after(C.dash_ticks, "dash_over", { target = e.id })
    end
  end
end

-- The sword (the trigger) strikes a foe: it is hurt, and flees from the hero for a moment.
function on_trigger_enter(events)
  for _, e in ipairs(events) do
    if e.a_kind == "sword" and ludus.has(e.b_tags, "foe") then
      ludus.damage(e.b, 1, e.a)
      ludus.effect("hit", e.bx, e.by)
    end
  end
end

-- Foes touching the hero hurt it: their contact_damage (game.toml) does that without a
-- script; on_damage below hears of each hit.

function on_damage(events)
  for _, d in ipairs(events) do
    if d.kind == "hero" then
      ludus.set("hp", math.max(d.health, 0))
      ludus.effect("hurt", d.x, d.y)
      ludus.sound("hurt")
      ludus.camera_shake(6, 15)
      if d.health <= 0 and ludus.alive(d.id) then
        -- Its sword, attached to it, goes with it.
        ludus.destroy(d.id)
        ludus.game_over("The dungeon keeps you. Score " .. ludus.score())
      end
    elseif d.health <= 0 then
      if ludus.alive(d.id) then
        ludus.destroy(d.id)
        ludus.effect("poof", d.x, d.y)
        ludus.add_score(d.kind == "bat" and 2 or 1)
        -- Counted now: this foe is being destroyed, so `count` leaves it out.
        local left = ludus.count("foe")
        ludus.set("foes", left)
        if left == 0 then
          ludus.game_over("The dungeon is clear!")
        end
      end
    else
      ludus.sound("hit")
      ludus.set_behaviour(d.id, "flee", { target = "hero" })
      ludus.set_speed(d.id, C.scare_speed)
      ludus.after(C.scare_ticks, "calm", { target = d.id })
    end
  end
end

function on_timer(events)
  for _, t in ipairs(events) do
    if t.name == "dash_over" then
      ludus.set_speed(t.target, C.walk)
    elseif t.name == "calm" then
      local calm = CALM[t.target_kind]
      ludus.set_speed(t.target, calm.speed)
      ludus.set_behaviour(t.target, "chase",
        { target = "hero", range = calm.range, idle = "wander", cadence = calm.cadence })
    end
  end
end
